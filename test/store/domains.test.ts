// A tenant's allowed browser domains in the store: adds skip what is there and keep to the limit (or
// write nothing), deletes answer what they removed, and the lookups CORS makes find a tenant's domain
// by candidate key, per tenant and across tenants. Runs on the database MARGINALIA_TEST_STORE names.
import { describe } from 'node:test';
import { TEST_STORE } from '../helpers/test-database.js';
import { T0, TA, TB, eq, storeTest } from '../helpers/store-fixtures.js';

describe(`${TEST_STORE} store: allowed domains`, () => {
  storeTest('an add skips the domains allowed already and answers both lists in the order given', async (store) => {
    eq(
      await store.addAllowedDomains(TA, ['b.example', 'a.example'], 10, T0),
      { added: ['b.example', 'a.example'], skipped: [] },
      'first',
    );
    eq(
      await store.addAllowedDomains(TA, ['c.example', 'a.example', '*.d.example'], 10, T0),
      { added: ['c.example', '*.d.example'], skipped: ['a.example'] },
      'a.example skipped',
    );
    eq(await store.allowedDomains(TA), ['*.d.example', 'a.example', 'b.example', 'c.example'], 'in code-unit order');
    eq(await store.allowedDomains(TB), [], "another tenant's list is its own");
  });

  storeTest(
    'an add that would pass the limit writes nothing; one that reaches it, or adds nothing new, passes',
    async (store) => {
      await store.addAllowedDomains(TA, ['a.example', 'b.example'], 3, T0);
      eq(await store.addAllowedDomains(TA, ['c.example', 'd.example'], 3, T0), 'too_many', 'five would be more than three');
      eq(await store.allowedDomains(TA), ['a.example', 'b.example'], 'nothing written');
      eq(
        await store.addAllowedDomains(TA, ['c.example', 'a.example'], 3, T0),
        { added: ['c.example'], skipped: ['a.example'] },
        'three',
      );
      eq(
        await store.addAllowedDomains(TA, ['a.example'], 2, T0),
        { added: [], skipped: ['a.example'] },
        'nothing new: no limit to pass',
      );
      eq(
        await store.addAllowedDomains(TB, ['a.example', 'b.example', 'c.example'], 3, T0),
        { added: ['a.example', 'b.example', 'c.example'], skipped: [] },
        "each tenant's own count",
      );
    },
  );

  storeTest('a delete answers the domains it removed, in the order given, and only of its tenant', async (store) => {
    await store.addAllowedDomains(TA, ['a.example', 'b.example', 'c.example'], 10, T0);
    await store.addAllowedDomains(TB, ['a.example'], 10, T0);
    eq(await store.deleteAllowedDomains(TA, ['c.example', 'nope.example', 'a.example']), ['c.example', 'a.example'], 'removed');
    eq(await store.deleteAllowedDomains(TA, ['c.example']), [], 'again: nothing');
    eq(await store.allowedDomains(TA), ['b.example'], 'what is left');
    eq(await store.allowedDomains(TB), ['a.example'], "the other tenant's a.example stays");
  });

  storeTest('an origin is allowed by a candidate key of its tenant, or of any tenant for a preflight', async (store) => {
    await store.addAllowedDomains(TA, ['a.example', '*.wild.example'], 10, T0);
    eq(await store.tenantAllowsDomain(TA, ['x.wild.example', '*.wild.example', '*.example']), true, 'by the wildcard');
    eq(await store.tenantAllowsDomain(TA, ['a.example']), true, 'by the host');
    eq(await store.tenantAllowsDomain(TB, ['a.example']), false, 'not by another tenant');
    eq(await store.tenantAllowsDomain(TA, ['b.example', '*.example']), false, 'no candidate allowed');
    eq(await store.tenantAllowsDomain(TA, []), false, 'no candidates');
    eq(await store.anyTenantAllowsDomain(['a.example']), true, 'any tenant');
    eq(await store.anyTenantAllowsDomain(['b.example', '*.example']), false, 'none');
  });
});
