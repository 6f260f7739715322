// Tenant isolation as a property (docs/api.md, "Credentials"): random sequences of operations by two tenants that
// use the same organization, document, annotation, notification and user ids. The sequence runs interleaved on
// one database, and each tenant's part runs alone on a database of its own. If nothing of one tenant
// is visible to or changeable by the other, every answer a tenant gets is the same in both runs, and
// so is everything it can read at the end. Runs on SQLite and, in the PostgreSQL pass, on PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { internalUserId } from '../../src/domain/ids.js';
import { makeTestApp, PATHS, T0, type Caller, type TestApp } from '../helpers/app.js';

const RUNS = Number(process.env.ISOLATION_RUNS || 40);
const SEED = Number(process.env.ISOLATION_SEED || 7);

const ORGS = ['o1', 'o2'];
const DOCS = ['d1', 'd2'];
const ANNS = ['a1', 'a2'];
const USERS = ['u1', 'u2', 'u3'];
const NOTES = ['n1', 'n2', 'n3'];
const PLACES = ['l1', 'l2'];
const STATES = ['s1', 's2'];

type Tenant = 'a' | 'b';
interface Op {
  tenant: Tenant;
  path: keyof typeof PATHS;
  data: Record<string, unknown>;
}

const pick = <T>(xs: readonly T[]) => fc.constantFrom(...xs);
const userIds = fc.uniqueArray(pick(USERS), { minLength: 1, maxLength: 3 });

/** One operation's data; `mark` makes what a tenant writes recognisably its own. */
function dataArb(mark: string): fc.Arbitrary<{ path: keyof typeof PATHS; data: Record<string, unknown> }> {
  const profile = (u: string) => ({ userId: u, name: `${mark} name of ${u}`, email: `${u}@${mark}.example` });
  return fc.oneof(
    fc
      .record({
        organizationId: pick(ORGS),
        documentId: fc.option(pick(DOCS), { nil: undefined }),
        users: userIds.map((us) => us.map(profile)),
      })
      .map((data) => ({ path: 'usersAdd' as const, data })),
    fc
      .record({
        organizationId: pick(ORGS),
        users: userIds.map((us) => us.map((u) => ({ userId: u, name: `${mark} renamed ${u}` }))),
      })
      .map((data) => ({ path: 'usersUpdate' as const, data })),
    fc
      .record({
        organizationId: pick(ORGS),
        documentId: pick(DOCS),
        annotationId: pick(ANNS),
        from: pick(USERS),
        locationId: pick(PLACES),
      })
      .map(({ annotationId, from, locationId, ...rest }) => ({
        path: 'annotationsAdd' as const,
        data: {
          ...rest,
          commentAnnotations: [
            { annotationId, locationId, commentData: [{ commentText: `${mark} opens`, from: { userId: from } }] },
          ],
        },
      })),
    // Documents without an organization: the same ids under both tenants, as for organizations.
    fc
      .record({ documentId: pick(DOCS), annotationId: pick(ANNS), from: pick(USERS) })
      .map(({ annotationId, from, documentId }) => ({
        path: 'annotationsAdd' as const,
        data: {
          documentId,
          commentAnnotations: [{ annotationId, commentData: [{ commentText: `${mark} alone`, from: { userId: from } }] }],
        },
      })),
    fc
      .record({ documentId: pick(DOCS), annotationIds: fc.uniqueArray(pick(ANNS), { minLength: 1, maxLength: 2 }) })
      .map((data) => ({ path: 'annotationsDelete' as const, data })),
    fc
      .record({ organizationId: pick(ORGS), documentId: pick(DOCS), from: pick(PLACES), to: pick(PLACES) })
      .map(({ from, to, ...rest }) => ({
        path: 'locationsUpdate' as const,
        data: { ...rest, migrate: { oldLocation: { id: from }, newLocation: { id: to, by: mark } } },
      })),
    fc
      .record({ organizationId: pick(ORGS), documentId: pick(DOCS), at: pick(PLACES) })
      .map(({ at, ...rest }) => ({ path: 'locationDataDelete' as const, data: { ...rest, location: { id: at } } })),
    fc
      .record({ organizationId: pick(ORGS), documentId: pick(DOCS), liveStateDataId: pick(STATES), merge: fc.boolean() })
      .map((data) => ({ path: 'liveStateBroadcast' as const, data: { ...data, data: { [mark]: true } } })),
    fc
      .record({
        organizationId: pick(ORGS),
        documentId: pick(DOCS),
        annotationId: pick(ANNS),
        from: pick(USERS),
        commentId: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
      })
      .map(({ from, commentId, ...rest }) => ({
        path: 'commentsAdd' as const,
        data: { ...rest, commentData: [{ commentId, commentHtml: `<p>${mark} replies</p>`, from: { userId: from } }] },
      })),
    fc
      .record({
        organizationId: pick(ORGS),
        documentId: pick(DOCS),
        notificationId: pick(NOTES),
        actor: pick(USERS),
        to: userIds,
      })
      .map(({ actor, to, ...rest }) => ({
        path: 'notificationsAdd' as const,
        data: {
          ...rest,
          actionUser: { userId: actor },
          displayHeadlineMessageTemplate: `{actor} (${mark})`,
          displayHeadlineMessageTemplateData: { actor: { userId: actor } },
          notifyUsers: to.map((userId) => ({ userId })),
        },
      })),
    fc
      .record({ organizationId: pick(ORGS), documentId: pick(DOCS), annotationId: pick(ANNS) })
      .map((data) => ({ path: 'commentsGet' as const, data })),
    fc
      .oneof(
        fc.record({ organizationId: pick(ORGS), documentId: pick(DOCS) }),
        fc.record({ organizationId: pick(ORGS), userId: pick(USERS) }),
      )
      .map((data) => ({ path: 'notificationsGet' as const, data })),
  );
}

const opArb: fc.Arbitrary<Op> = pick<Tenant>(['a', 'b']).chain((tenant) => dataArb(tenant).map((d) => ({ tenant, ...d })));

/** An app with a clock the test sets, and each tenant's internal ids for reversing. */
interface World {
  t: TestApp;
  setNow(ms: number): void;
  tenantIds: Record<Tenant, string>;
}

async function world(): Promise<World> {
  let now = T0;
  const t = await makeTestApp({ clock: () => now });
  const idOf = async (c: Caller) => (await t.store.findCredentials(c.creds.apiKey))!.tenant.id;
  return {
    t,
    setNow: (ms) => {
      now = ms;
    },
    tenantIds: { a: await idOf(t.a), b: await idOf(t.b) },
  };
}

/**
 * An answer with what differs between databases by construction put back to what it stands for: the
 * tenant's internal user ids (derived from its tenant id) and its API key.
 */
function normalize(w: World, tenant: Tenant, orgs: string[], body: string): unknown {
  const names = new Map<string, string>();
  for (const org of orgs) for (const u of [...USERS]) names.set(internalUserId(w.tenantIds[tenant], org, u), `<id ${org}/${u}>`);
  const apiKey = (tenant === 'a' ? w.t.a : w.t.b).creds.apiKey;
  const swap = (s: string) => names.get(s) ?? (s === apiKey ? '<api key>' : s);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return swap(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [swap(k), walk(x)]));
    return v;
  };
  return walk(JSON.parse(body));
}

/** Runs ops on a world: each tenant's n-th operation happens at T0 + n seconds, in any world. */
async function play(w: World, ops: Op[], orgs: string[]): Promise<unknown[]> {
  const step = { a: 0, b: 0 };
  const answers: unknown[] = [];
  for (const op of ops) {
    w.setNow(T0 + 1000 * step[op.tenant]++);
    const r = await (op.tenant === 'a' ? w.t.a : w.t.b).post(PATHS[op.path], op.data);
    answers.push([r.status, normalize(w, op.tenant, orgs, r.body)]);
  }
  return answers;
}

/** Everything a tenant can read in the run's organizations, and in its documents without one. */
async function snapshot(w: World, tenant: Tenant, orgs: string[]): Promise<unknown[]> {
  const c = tenant === 'a' ? w.t.a : w.t.b;
  const reads: unknown[] = [];
  const read = async (path: string, data: Record<string, unknown>) =>
    reads.push(normalize(w, tenant, orgs, (await c.post(path, data)).body));
  for (const organizationId of orgs) {
    for (const documentId of DOCS) {
      for (const annotationId of ANNS) await read(PATHS.commentsGet, { organizationId, documentId, annotationId });
      await read(PATHS.notificationsGet, { organizationId, documentId });
      await read(PATHS.annotationsGet, { organizationId, documentId });
      await read(PATHS.liveStateGet, { organizationId, documentId });
    }
    for (const userId of USERS) await read(PATHS.notificationsGet, { organizationId, userId });
  }
  // The run's documents without an organization: their ids carry the run's prefix, as organizations do.
  const prefix = orgs[0]!.slice(0, -ORGS[0]!.length);
  for (const documentId of DOCS) await read(PATHS.annotationsGet, { documentId: prefix + documentId });
  return reads;
}

describe(`tenant isolation as a property (seed ${SEED}, ${RUNS} runs)`, () => {
  let both: World;
  let aloneA: World;
  let aloneB: World;
  let run = 0;
  let opsPlayed = 0;

  before(async () => {
    [both, aloneA, aloneB] = [await world(), await world(), await world()];
  });
  after(async () => {
    for (const w of [both, aloneA, aloneB]) await w?.t.close();
    console.log(
      `isolation property: ${run} runs, ${opsPlayed} operations, every answer and final read identical to the tenant running alone`,
    );
  });

  test('whatever two tenants do with the same ids, each sees exactly what it would see alone', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 5, maxLength: 40 }), async (generated) => {
        // Each run uses organizations of its own, so runs share the databases without meeting.
        const prefix = `run${run++}-`;
        const orgs = ORGS.map((o) => prefix + o);
        const ops = generated.map((op) => ({
          ...op,
          data:
            'organizationId' in op.data
              ? { ...op.data, organizationId: prefix + String(op.data.organizationId) }
              : { ...op.data, documentId: prefix + String(op.data.documentId) },
        }));
        opsPlayed += ops.length;
        const interleaved = await play(both, ops, orgs);
        for (const tenant of ['a', 'b'] as const) {
          const own = ops.map((op, i) => [op, i] as const).filter(([op]) => op.tenant === tenant);
          const alone = await play(
            tenant === 'a' ? aloneA : aloneB,
            own.map(([op]) => op),
            orgs,
          );
          own.forEach(([op, i], k) => {
            assert.deepEqual(interleaved[i], alone[k], `tenant ${tenant}, operation ${i} ${op.path} ${JSON.stringify(op.data)}`);
          });
          assert.deepEqual(
            await snapshot(both, tenant, orgs),
            await snapshot(tenant === 'a' ? aloneA : aloneB, tenant, orgs),
            `tenant ${tenant}: final reads`,
          );
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
