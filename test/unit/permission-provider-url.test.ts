// The permission provider URL's check at workspace/permissionproviderconfig/update (docs/api.md, "Workspace
// service settings (/v2)"): the SSRF guard's lookup is bounded by MARGINALIA_PERMISSION_PROVIDER_TIMEOUT_MS,
// and a name that resolves to an internal address is refused like an address written as one. The store
// is never reached on a refusal.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiError } from '../../src/errors.js';
import type { Services } from '../../src/services/context.js';
import { updatePermissionProviderConfig } from '../../src/services/service-settings.js';
import type { Resolver } from '../../src/webhooks/ssrf.js';

const caller = { id: 'tenant', apiKey: 'key' };
const servicesWith = (resolveHost: Resolver, permissionProviderTimeoutMs = 100) =>
  ({
    store: new Proxy({}, { get: () => assert.fail('the store is not reached on a refusal') }),
    clock: () => 0,
    resolveHost,
    permissionProviderTimeoutMs,
  }) as unknown as Services;
const update = (services: Services, permissionProviderUrl: string) =>
  updatePermissionProviderConfig(services, caller, { permissionProviderConfig: { permissionProviderUrl } });

test('a host whose lookup does not answer within the timeout is refused, in about that time', async () => {
  const started = performance.now();
  await assert.rejects(
    update(
      servicesWith(() => new Promise(() => {})),
      'https://slow.example/p',
    ),
    (err: unknown) => err instanceof ApiError && /slow\.example does not resolve \(no answer within 100 ms\)/.test(err.message),
  );
  const took = performance.now() - started;
  assert.ok(took >= 90 && took < 2000, `${took} ms`);
});

test('a name that resolves to an internal address is refused, naming it; one that does not resolve too', async () => {
  await assert.rejects(
    update(
      servicesWith(async () => [{ address: '10.0.0.7' }]),
      'https://inside.example/p',
    ),
    /inside\.example resolves to 10\.0\.0\.7, a private address/,
  );
  await assert.rejects(
    update(
      servicesWith(async () => {
        throw Object.assign(new Error('nx'), { code: 'ENOTFOUND' });
      }),
      'https://nowhere.example/p',
    ),
    /nowhere\.example does not resolve \(ENOTFOUND\)/,
  );
});
