// The answer of a notification as the store keeps it (rendered at write time, with slots for the
// users its template names) against the answer as it was built before, from objects, with
// JSON.stringify: the same text for every shape of template data, including the ones whose key
// order JavaScript decides (integer-like keys), user objects that carry their own email, name or
// userId anywhere among their members, and profiles present or not.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newNotificationAnswer, pageAnswer } from '../../src/domain/answers/notifications.js';
import { showUser } from '../../src/domain/answers/users.js';
import type { StoredNotification } from '../../src/domain/notifications.js';
import type { Profile } from '../../src/domain/users.js';

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const isUser = (v: unknown): v is Record<string, unknown> & { userId: string } =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as { userId?: unknown }).userId === 'string';

/** The answer as it was built before answers were stored: objects, then JSON.stringify. */
function reference(n: Parameters<typeof newNotificationAnswer>[0], profiles: Map<string, Profile>, actor: Profile | null) {
  const data = Object.fromEntries(
    Object.entries(n.headlineData).map(([k, v]) =>
      isUser(v)
        ? [k, { ...v, ...showUser({ userId: v.userId, name: text(v.name), email: text(v.email) }, profiles.get(v.userId)) }]
        : [k, v],
    ),
  );
  const metadata: Record<string, unknown> = { apiKey: 'mk_key', organizationId: 'org' };
  if (n.documentId !== null) metadata.documentId = n.documentId;
  if (n.locationId !== null) metadata.locationId = n.locationId;
  return JSON.stringify({
    id: n.notificationId,
    notificationSource: 'custom',
    notificationSourceData: n.sourceData,
    actionUser: showUser({ userId: 'actor', name: 'Sent', email: null }, actor ?? undefined),
    displayBodyMessage: n.bodyMessage,
    displayHeadlineMessageTemplate: n.headlineTemplate,
    displayHeadlineMessageTemplateData: data,
    metadata,
    notifyUsers: Object.fromEntries(n.recipients.map((r) => [r.internalId, true])),
    notifyUsersByUserId: Object.fromEntries(n.recipients.map((r) => [r.userId, true])),
    timestamp: n.timestamp,
  });
}

function check(headlineData: Record<string, unknown>, profiles: Map<string, Profile>, actor: Profile | null = null) {
  const n = {
    notificationId: 'n-1',
    documentId: 'doc',
    locationId: null,
    headlineTemplate: '{a} and {b}',
    headlineData,
    sourceData: { '2': 'two', a: [1, { '1': 'x' }] },
    bodyMessage: 'body "quoted" \n',
    timestamp: 1718877222258,
    recipients: [
      { userId: '10', internalId: 'i-10' },
      { userId: 'b', internalId: '7' },
    ],
  };
  const stored: StoredNotification = {
    notificationId: n.notificationId,
    timestamp: n.timestamp,
    actionUser: { userId: 'actor', name: 'Sent', email: null },
    profileVersion: 0,
    credentialsVersion: 1,
    answer: newNotificationAnswer(n),
    readers: null,
  };
  const named = new Set(
    Object.values(headlineData)
      .filter(isUser)
      .map((u) => u.userId),
  );
  const answer = pageAnswer({ apiKey: 'mk_key' }, 'org', [stored], (userId) => `i-${userId}`);
  assert.deepEqual(new Set(answer.users), named, 'the users whose profiles it shows');
  // The action user's profile comes from the same organization's profiles as the template's users.
  const shown = actor ? new Map([...profiles, [actor.userId, actor]]) : profiles;
  assert.equal(answer.render(shown), `[${reference(n, profiles, actor)}]`);
}

const profile = (userId: string, name: string | null, email: string | null): Profile => ({ userId, name, email, photoUrl: null });

test('template data with users in every arrangement answers as the objects did', () => {
  const profiles = new Map([
    ['u1', profile('u1', 'Profile One', null)],
    ['u2', profile('u2', null, 'two@example.com')],
  ]);
  const cases: Record<string, unknown>[] = [
    {},
    { plain: 'no users', n: 3, nested: { userId: 5 } },
    { a: { userId: 'u1' } },
    { a: { userId: 'u1' }, b: { userId: 'u1', name: 'Own' } },
    { a: { name: 'first', userId: 'u2', extra: [1, 2], email: 'own@example.com' } },
    { a: { email: 'x', userId: 'nobody', '3': 'int key', name: 7 } },
    { '2': { userId: 'u1' }, '1': 'one', z: { userId: 'ghost', name: 'Ghost' }, a: 'a' },
    { a: { userId: 'u1', '\u0001gap': '\u0002\u0003', e1: 'looks like a slot' } },
    { a: { userId: 'quote"and\\back\u2028' }, b: 'the string "userId" alone' },
    { list: [{ userId: 'u1' }], deep: { inner: { userId: 'u1' } } },
    { a: { userId: 'u1', userIdx: 1, nameless: null } },
  ];
  for (const data of cases) {
    check(data, profiles);
    check(data, new Map());
    check(data, profiles, profile('actor', 'Actor Profile', 'actor@example.com'));
  }
});

test('random template data answers as the objects did', () => {
  let seed = 7;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const keys = ['userId', 'name', 'email', '0', '12', 'a', 'b', '__x', ''];
  const scalar = () => [null, 1, 'text', true, '"q"', [1, 'x'], { k: 'v' }][rnd(7)];
  const object = () => {
    const o: Record<string, unknown> = {};
    for (let i = rnd(5); i >= 0; i--) o[keys[rnd(keys.length)]!] = rnd(3) === 0 ? `u${rnd(3)}` : scalar();
    return o;
  };
  const profiles = new Map([['u1', profile('u1', 'P1', 'p1@example.com')]]);
  for (let i = 0; i < 500; i++) {
    const data: Record<string, unknown> = {};
    for (let j = rnd(4); j >= 0; j--) data[keys[rnd(keys.length)]!] = rnd(2) ? object() : scalar();
    check(data, profiles);
  }
});
