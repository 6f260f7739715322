// Random and adversarial request bodies for every operation (fast-check), as JSON text. Bodies are
// built as trees and written out by our own serializer, so they can hold what JSON.stringify of a
// JavaScript object cannot: `__proto__` as an own member, duplicate members, number literals past
// 2^53 or past a double, lone surrogates escaped or raw.
import fc from 'fast-check';
import { PATHS } from './app.js';

/** A JSON value whose objects are member lists and whose numbers may be raw literals. */
export type Json = null | boolean | string | { num: string } | Json[] | { members: [string, Json][] };

export function toJson(v: Json): string {
  if (v === null || typeof v === 'boolean') return String(v);
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(toJson).join(',')}]`;
  if ('num' in v) return v.num;
  return `{${v.members.map(([k, x]) => `${JSON.stringify(k)}:${toJson(x)}`).join(',')}}`;
}

const num = (n: number | string): Json => ({ num: String(n) });
const obj = (members: [string, Json][]): Json => ({ members });
const deep = (depth: number): Json => (depth === 0 ? 'bottom' : obj([['x', deep(depth - 1)]]));

const NASTY_STRINGS = [
  '',
  ' ',
  'x'.repeat(256),
  'x'.repeat(257),
  'x'.repeat(70_000),
  '😀'.repeat(256),
  '😀'.repeat(257),
  '\u0000',
  'a\u0000b',
  '\uD800',
  'a\uDC00b',
  '\uDBFF\uDFFF',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  "'; DROP TABLE users; --",
  '%s%n',
  '../../etc/passwd',
  '__proto__',
  'constructor',
  'prototype',
  'a@b',
  'not-an-email',
  'javascript:alert(1)',
  '\u202e\u0301',
  'NaN',
  '-1',
  '1e999',
];
const NASTY_NUMBERS = [
  '0',
  '-0',
  '1',
  '-1',
  '0.5',
  '1e308',
  '1e309',
  '-1e309',
  '2147483647',
  '2147483648',
  '9007199254740991',
  '9007199254740993',
  '-9007199254740993',
  '123456789012345678901234567890',
  '1E2',
  '4.9e-324',
];

/** A value chosen to break things: wrong types, sizes at and past limits, special keys, depth. */
const nasty: fc.Arbitrary<Json> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_NUMBERS).map(num) },
  { weight: 3, arbitrary: fc.constantFrom<Json>(null, true, false, [], obj([])) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  // Nesting past the depth bound is refused before anything else looks at the body: kept rare.
  { weight: 1, arbitrary: fc.integer({ min: 28, max: 36 }).map(deep) },
  { weight: 1, arbitrary: fc.constantFrom(999, 1000, 1001).map((n): Json => Array.from({ length: n }, (_, i) => `id-${i}`)) },
  { weight: 1, arbitrary: fc.constant<Json>(['dup', 'dup']) },
  {
    weight: 2,
    arbitrary: fc.constant<Json>(
      obj([
        ['__proto__', obj([['polluted', true]])],
        ['constructor', obj([['prototype', obj([['polluted', true]])]])],
      ]),
    ),
  },
);

/** Mostly a plausible value, sometimes a nasty one. */
const either = (good: fc.Arbitrary<Json>): fc.Arbitrary<Json> =>
  fc.oneof({ weight: 4, arbitrary: good }, { weight: 1, arbitrary: nasty });

/**
 * An object of the given members: all present and plausible (so the operation gets to work), or one
 * of them replaced by a nasty value or left out, or each one at random; unknown and special members
 * (`__proto__`, `constructor`) and a duplicated member are mixed in.
 */
function record(fields: Record<string, fc.Arbitrary<Json>>): fc.Arbitrary<Json> {
  const names = Object.keys(fields);
  const whole = fc.record(fields);
  const members = fc.oneof(
    { weight: 6, arbitrary: whole.map((k) => Object.entries(k) as [string, Json][]) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(whole, fc.constantFrom(...names), fc.option(nasty, { nil: undefined }))
        .map(([k, name, bad]) =>
          (Object.entries(k) as [string, Json][]).flatMap(([n, v]): [string, Json][] =>
            n !== name ? [[n, v]] : bad === undefined ? [] : [[n, bad]],
          ),
        ),
    },
    {
      weight: 1,
      arbitrary: fc
        .record(Object.fromEntries(names.map((k) => [k, either(fields[k]!)])), { requiredKeys: [] })
        .map((k) => Object.entries(k) as [string, Json][]),
    },
  );
  const extra = fc.array(
    fc.tuple(fc.constantFrom('__proto__', 'constructor', 'prototype', 'extra', 'toString', 'hasOwnProperty'), nasty),
    { maxLength: 2 },
  );
  return fc.tuple(members, extra, fc.boolean()).map(([m, x, dup]) => {
    // A duplicated member: JSON parsers keep the last one; ours must not trip over it.
    const all = [...m, ...x];
    if (dup && m[0]) all.push([m[0][0], m[0][1]]);
    return obj(all);
  });
}

const id = (prefix: string) => fc.constantFrom(`${prefix}1`, `${prefix}2`, `${prefix}3`);
const org = id('org-');
const doc = id('doc-');
const ann = id('ann-');
const uid = id('u');
/** A batch (at least one entry) or, with min 0, a filter. */
const list = <T extends Json>(a: fc.Arbitrary<T>, max = 3, min = 1): fc.Arbitrary<Json> =>
  fc.array(a, { minLength: min, maxLength: max });
/** Allowed-domain entries: URLs and hosts, wildcards, and the malformed kinds (a * inside, a bare *, *.com). */
const domain = fc.constantFrom<Json>(
  'https://www.example.com',
  'example.com',
  'https://*.example.com',
  'http://localhost:3000',
  '127.0.0.1',
  'https://Bücher.de/x?y#z',
  'a.*.example.com',
  '*',
  '*.com',
  'exa mple.com',
  'ftp://example.com',
);
const freeObject: fc.Arbitrary<Json> = fc.oneof(
  fc.constant(obj([])),
  fc.tuple(fc.string({ maxLength: 8 }), nasty).map(([k, v]) => obj([[k, v]])),
  uid.map((u) =>
    obj([
      [
        'who',
        obj([
          ['userId', u],
          ['name', 'N'],
        ]),
      ],
    ]),
  ),
);
const userRef = record({ userId: uid, name: fc.string({ maxLength: 20 }), email: fc.constantFrom('a@b.c', '', 'x@y') });
const user = record({
  userId: uid,
  name: fc.string({ maxLength: 20 }),
  email: fc.constantFrom('a@b.c', ''),
  photoUrl: fc.constant('https://x/p.png'),
});
/**
 * Import times (docs/api.md, "What an import keeps"): integer ms 0..8640000000000000, both ends included (`nasty`
 * goes past them).
 */
const time: fc.Arbitrary<Json> = fc.constantFrom('0', '1600000000000', '8640000000000000').map(num);
/** A mention: kept plain (no nasty members of its own) so comments still mostly get through to the store. */
const tag: fc.Arbitrary<Json> = uid.chain((u) =>
  fc.constantFrom<Json>(
    obj([['userId', u]]),
    obj([
      ['userId', u],
      ['text', `@${u}`],
    ]),
    obj([
      ['userId', u],
      ['contact', obj([['userId', u]])],
    ]),
  ),
);
const comment = record({
  commentId: fc.integer({ min: 1, max: 5 }).map(num),
  commentText: fc.string({ maxLength: 30 }),
  commentHtml: fc.constantFrom(
    '<p>hi</p>',
    '<b>x</b><script>bad()</script>',
    '<a href="javascript:x">l</a>',
    '<div><img src="https://x.example/a.png" alt="a" width="1" height="2" onerror="bad()"></div>',
    '<span class="mention" data-user-id="u1" data-x="javascript:bad()">@u1</span>',
  ),
  from: userRef,
  createdAt: time,
  lastUpdated: time,
  taggedUserContacts: list(tag, 3, 0),
});
const statusObject: fc.Arbitrary<Json> = fc.constantFrom<Json>(
  obj([
    ['id', 'OPEN'],
    ['name', 'Open'],
    ['type', 'default'],
  ]),
  obj([
    ['id', 'RESOLVED'],
    ['name', 'Resolved'],
    ['type', 'terminal'],
  ]),
);
/** Filters of docs/api.md "Comment threads": each may be empty (no filter). */
const threadFilters = {
  annotationIds: list(ann, 3, 0),
  locationIds: list(id('loc'), 3, 0),
  userIds: list(uid, 3, 0),
};

/** users/add and users/update: an organization, or a document or a folder in it (not both). */
const usersData = () =>
  fc.oneof(
    record({ organizationId: org, users: list(user) }),
    record({ organizationId: org, documentId: doc, users: list(user) }),
    record({ organizationId: org, folderId: id('f'), users: list(user) }),
  );

/** The workspace's service settings: the switches, and configurations with values in and out of their ranges. */
function serviceSettingsData() {
  const flag = fc.constantFrom<Json>(true, false, null, 'yes');
  const triggers = obj([
    [
      'comment',
      obj([
        ['added', true],
        ['newlyAdded', false],
      ]),
    ],
    ['huddle', obj([['join', 'on']])],
  ]);
  const seconds = fc.constantFrom<Json>(num(10), num(9), num(15_552_000), num(604_801), num(30.5), '30');
  const level = record({
    isEnabled: flag,
    batchWindowSeconds: seconds,
    maxActivities: fc.constantFrom<Json>(num(2), num(1), num(51)),
  });
  const empty = fc.constant<Json>(obj([]));
  return {
    emailConfigGet: empty,
    notificationConfigGet: empty,
    permissionProviderConfigGet: empty,
    emailConfigUpdate: record({
      useEmailService: flag,
      emailServiceConfig: record({
        type: fc.constantFrom<Json>('default', 'sendgrid', 'custom', 'smtp'),
        apiKey: fc.string({ maxLength: 20 }),
        fromEmail: fc.constantFrom<Json>('', 'noreply@example.com', 'not-an-email'),
        fromCompany: fc.string({ maxLength: 20 }),
        triggers: freeObject,
      }),
    }),
    notificationConfigUpdate: record({
      useNotificationService: flag,
      notificationServiceConfig: record({
        triggers: fc.constantFrom<Json>(triggers, obj([])),
        delayConfig: record({ isEnabled: flag, delaySeconds: seconds }),
        batchConfig: record({ document: level, user: level }),
      }),
    }),
    permissionProviderConfigUpdate: record({
      usePermissionProvider: flag,
      permissionProviderConfig: record({
        // Addresses only: the guard refuses these without asking a resolver.
        permissionProviderUrl: fc.constantFrom<Json>('', 'ftp://x', 'not a url', 'http://127.0.0.1/p', 'https://10.0.0.1/p'),
        authToken: fc.string({ maxLength: 20 }),
      }),
    }),
  };
}

/** Documents' presence. */
function presenceData() {
  const status = fc.constantFrom<Json>('online', 'away', 'offline', 'busy', null);
  const users = list(
    record({ userId: uid, name: fc.string({ maxLength: 10 }), email: fc.constantFrom<Json>('a@b.c', null), status }),
  );
  return {
    presenceAdd: record({ organizationId: org, documentId: doc, users }),
    presenceUpdate: record({ organizationId: org, documentId: doc, users }),
    presenceDelete: record({ organizationId: org, documentId: doc, userIds: list(uid) }),
    presenceGet: record({ organizationId: org, documentId: doc }),
  };
}

/** Retention policies: windows at and past their bounds, scopes and flags of every kind. */
function retentionData() {
  const days = fc.constantFrom<Json>(num(1), num(30), num(36_500), num(0), num(36_501), num(-1), num(1.5), '7', null);
  const flag = fc.constantFrom<Json>(true, false, null, 'yes');
  const orgOrNone = fc.option(org, { nil: null });
  return {
    retentionGet: record({ organizationId: orgOrNone }),
    retentionSet: record({
      organizationId: orgOrNone,
      notificationsDays: days,
      notificationsScope: fc.constantFrom<Json>('read', 'all', 'unread', null),
      resolvedThreadsDays: days,
      eventsDays: days,
      activitiesDays: days,
      inherit: flag,
    }),
    retentionRun: record({ organizationId: orgOrNone, dryRun: flag }),
  };
}

/** Reactions: emoji sequences, icon names and what is neither (text, two emoji, markup, too long). */
function reactionsData() {
  const icon = fc.constantFrom<Json>('👍', '👍🏽', '👨‍👩‍👧', 'RAISED_HANDS', 'ok', '👍👍', '<b>', 'A'.repeat(300), '', null);
  const reaction = record({
    organizationId: org,
    documentId: doc,
    annotationId: ann,
    commentId: fc.constantFrom<Json>(num(1), num(2), num(0), '1'),
    icon,
    userId: fc.option(uid, { nil: null }),
  });
  return { reactionsAdd: reaction, reactionsDelete: reaction };
}

/** search/get: queries with every operator FTS5 and tsquery know, kinds, filters and pages at and past their bounds. */
function searchData() {
  const query = fc.oneof(
    nasty,
    fc.constantFrom<Json>('a', '"', 'NEAR(a b)', 'a* OR b:*', "it's (x) & !y | z <-> w", '日本語', 'café', '', ' '),
  );
  return {
    searchGet: record({
      organizationId: org,
      query,
      kinds: fc.constantFrom<Json>(['comment'], ['notification'], [], ['x'], null),
      documentIds: list(doc, 3, 0),
      userIds: list(uid, 3, 0),
      createdAfter: fc.constantFrom<Json>(num(0), num(-1), null),
      pageSize: fc.constantFrom<Json>(num(1), num(100), num(101), num(0), null),
      pageToken: fc.constantFrom<Json>('x', 'WzIsIlstMV0iLCJ4Il0', null),
    }),
  };
}

/** A resource a role is on, as auth/generate_token and the permissions pages take it. */
const resource = record({
  type: fc.constantFrom<Json>('organization', 'folder', 'document', 'workspace'),
  id: id('r'),
  organizationId: fc.option(org, { nil: null }),
  accessRole: fc.constantFrom<Json>('viewer', 'editor', null, 'owner'),
  expiresAt: time,
});

/** The `data` member of each operation. */
const DATA: Record<keyof typeof PATHS, fc.Arbitrary<Json>> = {
  usersAdd: usersData(),
  usersUpdate: usersData(),
  annotationsAdd: record({
    organizationId: org,
    documentId: doc,
    commentAnnotations: list(
      record({
        annotationId: ann,
        location: freeObject,
        locationId: id('loc'),
        context: freeObject,
        status: freeObject,
        assignedTo: userRef,
        priority: freeObject,
        targetElement: freeObject,
        createdAt: time,
        lastUpdated: time,
        commentData: list(comment),
      }),
      2,
    ),
  }),
  commentsAdd: record({ organizationId: org, documentId: doc, annotationId: ann, commentData: list(comment) }),
  commentsGet: record({
    organizationId: org,
    documentId: doc,
    annotationId: ann,
    userIds: list(uid, 3, 0),
    commentIds: list(fc.integer({ min: 1, max: 5 }).map(num), 3, 0),
  }),
  commentsUpdate: record({
    organizationId: org,
    documentId: doc,
    annotationId: ann,
    commentIds: list(fc.integer({ min: 1, max: 5 }).map(num), 3),
    updatedData: record({
      commentText: fc.string({ maxLength: 30 }),
      commentHtml: fc.constantFrom('<p>edited</p>', '<img src="javascript:bad()">', '<span class="x" onclick="bad()">y</span>'),
      from: userRef,
      taggedUserContacts: fc.oneof(list(tag, 3, 0), fc.constant<Json>(null)),
    }),
  }),
  commentsDelete: record({
    organizationId: org,
    documentId: doc,
    annotationId: ann,
    commentIds: list(fc.integer({ min: 1, max: 5 }).map(num), 3, 0),
  }),
  annotationsGet: record({
    organizationId: org,
    documentId: doc,
    ...threadFilters,
    statusIds: list(fc.constantFrom('OPEN', 'RESOLVED'), 2, 0),
    pageSize: fc.integer({ min: 1, max: 5 }).map(num),
    pageToken: fc.constantFrom<Json>(null, 'garbage', 'eyJ0IjoxfQ'),
  }),
  annotationsUpdate: record({
    organizationId: org,
    documentId: doc,
    ...threadFilters,
    updatedData: record({
      status: statusObject,
      location: fc.oneof(freeObject, fc.constant<Json>(null)),
      locationId: fc.oneof(id('loc'), fc.constant<Json>(null)),
      context: fc.oneof(freeObject, fc.constant<Json>(null)),
      color: fc.oneof(fc.string({ maxLength: 8 }), fc.constant<Json>(null)),
      assignedTo: fc.oneof(userRef, fc.constant<Json>(null)),
      priority: fc.oneof(freeObject, fc.constant<Json>(null)),
      targetElement: fc.oneof(freeObject, fc.constant<Json>(null)),
    }),
    updateUsers: list(record({ oldUser: record({ userId: uid }), newUser: userRef }), 3),
  }),
  annotationsDelete: record({ organizationId: org, documentId: doc, ...threadFilters }),
  annotationsCount: record({
    organizationId: org,
    documentIds: list(doc),
    userId: uid,
    statusIds: list(fc.constantFrom('OPEN', 'RESOLVED'), 2, 0),
  }),
  annotationsRead: record({ organizationId: org, documentId: doc, userId: uid, annotationIds: list(ann, 3, 0) }),
  notificationsAdd: record({
    organizationId: org,
    documentId: doc,
    locationId: id('loc'),
    notificationId: id('n'),
    actionUser: userRef,
    displayHeadlineMessageTemplate: fc.constantFrom('{who} did it', ''),
    displayHeadlineMessageTemplateData: freeObject,
    displayBodyMessage: fc.string({ maxLength: 20 }),
    notificationSourceData: freeObject,
    notifyUsers: list(userRef),
  }),
  notificationsGet: record({
    organizationId: org,
    documentId: doc,
    userId: uid,
    locationId: id('loc'),
    notificationIds: list(id('n'), 3, 0),
    pageSize: fc.integer({ min: 1, max: 5 }).map(num),
    pageToken: fc.constantFrom<Json>(null, 'garbage', 'eyJ0IjoxfQ'),
  }),
  notificationsUpdate: record({
    organizationId: org,
    notifications: list(
      record({
        id: id('n'),
        readByUserIds: list(uid, 2, 0),
        unreadByUserIds: list(uid, 2, 0),
        actionUser: userRef,
        displayHeadlineMessageTemplate: fc.constantFrom('{who} changed it', ''),
        displayHeadlineMessageTemplateData: freeObject,
        displayBodyMessage: fc.string({ maxLength: 20 }),
        notificationSourceData: freeObject,
      }),
    ),
  }),
  notificationsDelete: record({
    organizationId: org,
    documentId: doc,
    locationId: id('loc'),
    userId: uid,
    notificationIds: list(id('n'), 3, 0),
  }),
  notificationsCount: record({
    organizationId: org,
    userId: uid,
    documentId: doc,
    archived: fc.constantFrom<Json>(true, false, null),
  }),
  notificationsArchive: record({
    organizationId: org,
    userId: uid,
    notificationIds: list(id('n'), 3, 0),
    allRead: fc.constantFrom<Json>(true, false),
  }),
  notificationsUnarchive: record({ organizationId: org, userId: uid, notificationIds: list(id('n'), 3, 0) }),
  notificationsRead: record({ organizationId: org, userId: uid, documentId: doc, notificationIds: list(id('n'), 3, 0) }),
  notificationsConfigGet: record({ organizationId: org, documentIds: list(doc), userId: uid }),
  notificationsConfigSet: record({
    organizationId: org,
    documentIds: list(doc),
    userIds: list(uid),
    config: record({ inbox: fc.constantFrom('ALL', 'MINE', 'NONE'), email: fc.constantFrom('ALL', 'MINE', 'NONE') }),
  }),
  organizationsAdd: record({
    organizations: list(record({ organizationId: org, organizationName: fc.string({ maxLength: 20 }) })),
  }),
  organizationsGet: record({
    organizationIds: list(org, 3, 0),
    pageSize: fc.integer({ min: 1, max: 5 }).map(num),
    pageToken: fc.constantFrom<Json>(null, 'garbage', 'eyJ0IjoxfQ', 'WzIsIngiLCJ5Il0'),
  }),
  organizationsUpdate: record({
    organizations: list(record({ organizationId: org, organizationName: fc.string({ maxLength: 20 }) })),
  }),
  usersGet: record({
    organizationId: org,
    documentId: fc.constantFrom<Json>(null, 'doc-1'),
    userIds: list(uid, 3, 0),
    organizationUserGroupIds: list(id('g'), 3, 0),
    pageSize: fc.integer({ min: 1, max: 5 }).map(num),
    pageToken: fc.constantFrom<Json>(null, 'garbage', 'WzIsIngiLCJ5Il0'),
  }),
  usersDelete: record({ organizationId: org, documentId: fc.constantFrom<Json>(null, 'doc-1'), userIds: list(uid) }),
  userGroupsAdd: record({
    organizationId: org,
    organizationUserGroups: list(record({ groupId: id('g'), groupName: fc.string({ maxLength: 20 }) })),
  }),
  groupUsersAdd: record({ organizationId: org, organizationUserGroupId: id('g'), userIds: list(uid) }),
  groupUsersDelete: record({
    organizationId: org,
    organizationUserGroupId: id('g'),
    userIds: list(uid, 3, 0),
    deleteAll: fc.constantFrom<Json>(null, true, false),
  }),
  userGroupsGet: record({
    organizationId: org,
    pageSize: fc.integer({ min: 1, max: 5 }).map(num),
    pageToken: fc.constantFrom<Json>(null, 'garbage', 'WzIsIngiLCJ5Il0'),
  }),
  userDataGet: record({
    organizationId: org,
    userId: uid,
    pageToken: fc.constantFrom<Json>(null, 'garbage', 'WzIsInt9IiwieCJd'),
  }),
  userDataDelete: record({ userIds: list(uid), organizationIds: list(org, 3, 0) }),
  userDataStatus: record({ jobId: fc.constantFrom<Json>('job-1', 'garbage') }),
  documentsAdd: record({
    organizationId: org,
    folderId: fc.constantFrom<Json>(null, 'root', 'folder-1', 'folder-2'),
    documents: list(record({ documentId: doc, documentName: fc.string({ maxLength: 20 }) })),
  }),
  documentsGet: record({
    organizationId: org,
    documentIds: list(doc, 3, 0),
    folderId: fc.constantFrom<Json>(null, 'root', 'folder-1'),
    pageSize: fc.integer({ min: 1, max: 5 }).map(num),
    pageToken: fc.constantFrom<Json>(null, 'garbage', 'WzIsIngiLCJ5Il0'),
  }),
  documentsUpdate: record({
    organizationId: org,
    documents: list(record({ documentId: doc, documentName: fc.string({ maxLength: 20 }) })),
  }),
  documentsDelete: record({ organizationId: org, documentIds: list(doc) }),
  documentsMove: record({
    organizationId: org,
    documentIds: list(doc),
    folderId: fc.constantFrom<Json>('root', 'folder-1', 'folder-2'),
  }),
  documentsAccess: record({
    organizationId: org,
    documentIds: list(doc),
    accessType: fc.constantFrom<Json>('organizationPrivate', 'restricted', 'public', 'secret'),
  }),
  documentsDisable: record({ organizationId: org, documentIds: list(doc), disabled: fc.constantFrom<Json>(true, false, 'yes') }),
  foldersAdd: record({
    organizationId: org,
    folders: list(
      record({
        folderId: id('folder-'),
        folderName: fc.string({ maxLength: 20 }),
        parentFolderId: fc.constantFrom<Json>(null, 'root', 'folder-1', 'folder-2'),
      }),
    ),
  }),
  foldersGet: record({ organizationId: org, folderId: fc.constantFrom<Json>(null, 'folder-1', 'root') }),
  foldersUpdate: record({
    organizationId: org,
    folders: list(
      record({
        folderId: id('folder-'),
        folderName: fc.string({ maxLength: 20 }),
        parentFolderId: fc.constantFrom<Json>(null, 'root', 'folder-1', 'folder-2', 'folder-3'),
      }),
    ),
  }),
  foldersDelete: record({ organizationId: org, folderIds: list(id('folder-')) }),
  foldersAccess: record({
    organizationId: org,
    folderIds: list(id('folder-')),
    accessType: fc.constantFrom<Json>('organizationPrivate', 'restricted', 'public', 'secret'),
  }),
  organizationsDelete: record({ organizationIds: list(org) }),
  documentsMigrate: record({ organizationId: org, documentId: doc, newDocumentId: doc }),
  documentsMigrateStatus: record({ organizationId: org, migrationId: fc.constantFrom<Json>('migration-1', 'garbage') }),
  organizationsDisable: record({ organizationIds: list(org), disabled: fc.constantFrom<Json>(true, false, 'yes', num(1)) }),
  // The fuzzed requests carry header credentials, so body credentials (wrong ones here) are ignored.
  locationsUpdate: record({
    organizationId: fc.option(org, { nil: null }),
    documentId: doc,
    migrate: record({
      oldLocation: record({ id: id('loc'), locationName: fc.string({ maxLength: 10 }) }),
      newLocation: record({ id: id('loc') }),
    }),
    merge: fc.constantFrom<Json>(true, false, null, 'yes'),
  }),
  locationDataDelete: record({
    organizationId: fc.option(org, { nil: null }),
    documentId: doc,
    location: record({ id: id('loc') }),
  }),
  authTokenGet: record({
    userId: uid,
    userProperties: record({
      organizationId: org,
      email: fc.constantFrom<Json>('a@b.c', '', 'x@y', null),
      name: fc.string({ maxLength: 20 }),
      isAdmin: fc.constantFrom<Json>(true, false, null, 'yes'),
    }),
    apiKey: fc.constantFrom<Json>('not-a-key', ''),
    authToken: fc.constantFrom<Json>('not-a-token', ''),
  }),
  authGenerateToken: record({
    userId: uid,
    userProperties: record({
      name: fc.string({ maxLength: 20 }),
      email: fc.constantFrom<Json>('a@b.c', '', null),
      isAdmin: fc.constantFrom<Json>(true, false, null, 'yes'),
    }),
    permissions: record({
      resources: list(
        record({
          type: fc.constantFrom<Json>('organization', 'folder', 'document', 'workspace'),
          id: id('r'),
          organizationId: fc.option(org, { nil: null }),
          accessRole: fc.constantFrom<Json>('viewer', 'editor', null, 'owner'),
          expiresAt: time,
        }),
      ),
    }),
  }),
  permissionsAdd: record({
    user: record({ userId: uid }),
    permissions: record({ resources: list(resource) }),
  }),
  permissionsRemove: record({
    userId: uid,
    permissions: record({ resources: list(resource) }),
  }),
  permissionsGet: record({
    organizationId: org,
    userIds: list(uid),
    folderIds: fc.option(list(id('f')), { nil: null }),
    documentIds: fc.option(list(doc), { nil: null }),
  }),
  generateSignature: record({
    permissions: list(
      record({
        userId: uid,
        resourceId: id('r'),
        type: fc.constantFrom<Json>('organization', 'folder', 'document', 'workspace'),
        hasAccess: fc.constantFrom<Json>(true, false, 'yes'),
        accessRole: fc.constantFrom<Json>('viewer', 'editor', null, 'owner'),
        expiresAt: time,
      }),
    ),
  }),
  // Every host is this machine, at a port where nothing listens: the real server of fuzz.test.ts allows
  // them (MARGINALIA_WEBHOOK_ALLOW_PRIVATE) and its deliveries fail at once, never leaving the machine; in
  // process the guard refuses them. And URLs refused whatever the guard: a scheme, none, a password.
  webhooksAdd: record({
    url: fc.constantFrom<Json>(
      'http://127.0.0.1:9/hook',
      'http://localhost:9/x?y=1',
      'http://[::1]:9/h',
      'https://127.0.0.1:9/',
      'ftp://127.0.0.1:9/',
      'not a url',
      'https://u:p@127.0.0.1:9/',
    ),
    events: list(fc.constantFrom<Json>('comment.add', 'comment.*', 'notification.read', 'comments.add', '*', 'user.'), 3, 0),
    description: fc.string({ maxLength: 20 }),
  }),
  // It takes no members: an unknown one is ignored (docs/api.md, "Wire format").
  webhooksGet: record({ organizationId: org }),
  webhooksDelete: record({ webhookId: id('wh_') }),
  webhooksEnable: record({ webhookId: id('wh_') }),
  webhookDeliveriesGet: record({
    webhookId: id('wh_'),
    pageSize: fc.integer({ min: 1, max: 5 }).map(num),
    pageToken: fc.constantFrom<Json>(null, 'garbage', 'WzIsIjEiLCJ4Il0', 'WzIsIngiLCJ5Il0'),
  }),
  // Repeats across bodies are the point: an add of a domain allowed already, or a delete of one that is
  // not, is the documented partial answer (fuzz.test.ts accepts exactly that 500).
  domainsAdd: record({ domains: list(domain, 4) }),
  domainsDelete: record({ domains: list(domain, 4) }),
  apiKeyCreate: record({
    // Mostly valid, so bodies reach the write as well as each refusal.
    ownerEmail: fc.constantFrom<Json>('owner@example.com', 'a@b.co', 'owner@example.com', 'not-an-email', ''),
    type: fc.constantFrom<Json>('testing', 'production', 'testing', 'other'),
    apiKeyName: fc.string({ minLength: 1, maxLength: 12 }),
    createAuthToken: fc.boolean(),
    persistenceDBRegion: fc.constantFrom<Json>('eur3', 'us-central1', 'eur3', ''),
    allowedDomains: fc.oneof(fc.constant<Json>([]), list(domain, 2, 0)),
    addLocalHostToAllowedDomains: fc.boolean(),
    // Closed objects (another member is refused): the plain shape, or one with a member too many.
    emailServiceConfig: fc.constantFrom<Json>(
      obj([
        ['type', 'sendgrid'],
        ['apiKey', 'SG.0123456789'],
      ]),
      obj([['type', 'other']]),
      obj([['extra', 'x']]),
    ),
    webhookServiceConfig: fc.constantFrom<Json>(obj([['authToken', 'tok-0123456789']]), obj([['authToken', { num: '1' }]])),
  }),
  apiKeyUpdate: record({ apiKey: id('mk_'), apiKeyName: fc.string({ maxLength: 12 }) }),
  apiKeysGet: record({
    apiKeys: list(id('mk_'), 3, 0),
    pageSize: fc.integer({ min: 0, max: 101 }).map(num),
    pageToken: fc.constantFrom<Json>(null, 'garbage', 'eyJ0IjoxfQ'),
  }),
  authTokensGet: record({ apiKey: id('mk_') }),
  authTokenReset: record({ apiKey: id('mk_') }),
  allowedDomainsGet: fc.constant<Json>(obj([])),
  apiKeyConfigGet: fc.constant<Json>(obj([['extra', 'x']])),
  apiKeyConfigUpdate: record({
    requireJwtToken: fc.boolean(),
    enablePrivateComments: fc.boolean(),
    defaultDocumentAccessType: fc.constantFrom<Json>('public', 'restricted', 'organizationPrivate', 'open'),
    aiModelApiKey: list(
      record({
        provider: fc.constantFrom<Json>('openai', 'anthropic', 'gemini', 'x'),
        customerApiKey: fc.string({ maxLength: 20 }),
      }),
      2,
      0,
    ),
  }),
  liveStateBroadcast: record({
    organizationId: org,
    documentId: doc,
    liveStateDataId: id('ls-'),
    data: freeObject,
    merge: fc.constantFrom<Json>(true, false, null, 'yes'),
  }),
  liveStateGet: record({ organizationId: org, documentId: doc, liveStateDataIds: list(id('ls-'), 3, 0) }),
  activitiesAdd: record({
    organizationId: org,
    documentId: doc,
    activities: list(
      record({
        id: id('act-'),
        featureType: fc.constantFrom('comment', 'custom', 'reaction', 'nope'),
        actionType: fc.constantFrom('comment.add', 'statusChanged', ''),
        actionUser: userRef,
        targetEntityId: ann,
        changes: freeObject,
        entityData: freeObject,
        displayMessageTemplate: fc.string({ maxLength: 30 }),
        displayMessageTemplateData: freeObject,
        actionIcon: fc.string({ maxLength: 20 }),
      }),
    ),
  }),
  activitiesGet: record({
    organizationId: org,
    documentId: doc,
    targetEntityId: ann,
    featureTypes: list(fc.constantFrom('comment', 'custom', 'nope'), 3, 0),
    actionTypes: list(fc.constantFrom('comment.add', 'document.add'), 3, 0),
    userId: uid,
    activityIds: list(id('act-'), 3, 0),
    order: fc.constantFrom('asc', 'desc', 'sideways'),
    pageSize: fc.constantFrom<Json>(num(1), num(50), num(0), num(1001)),
  }),
  activitiesUpdate: record({
    organizationId: org,
    activities: list(record({ id: id('act-'), displayMessageTemplate: fc.string({ maxLength: 30 }), changes: freeObject })),
  }),
  activitiesDelete: record({ organizationId: org, documentId: doc, targetEntityId: ann, activityIds: list(id('act-'), 3, 0) }),
  activityConfigGet: fc.constant<Json>(obj([])),
  activityConfigUpdate: record({
    activityServiceConfig: record({
      isEnabled: fc.boolean(),
      immutable: fc.boolean(),
      enabledTime: time,
      retentionDays: fc.constantFrom<Json>(num(1), num(90), num(0), num(100000)),
      triggers: fc.constant<Json>(obj([['comment', obj([['comment.add', false]])]])),
    }),
  }),
  // Advanced webhooks: the config switched on and off among the bodies, so the endpoint pages meet both states.
  endpointsCreate: record({
    url: fc.constantFrom<Json>('http://127.0.0.1:9/hook', 'not a url', 'ftp://127.0.0.1:9/', 'https://u:p@127.0.0.1:9/'),
    filterTypes: list(fc.constantFrom<Json>('comment.add', 'comment_annotation.assign', 'huddle.x', '*'), 3, 0),
    channels: list(org, 2, 0),
    disabled: fc.constantFrom<Json>(true, false, null, 'no'),
    rateLimit: fc.constantFrom<Json>(num(1), num(5), num(0), num(-1), num(1.5), '2'),
    metadata: fc.constantFrom<Json>(obj([['a', 'b']]), obj([['a', num(1)]]), null, []),
    uid: id('u'),
  }),
  endpointsGet: record({
    limit: fc.constantFrom<Json>(num(1), num(2), num(250), num(251), num(0), '3'),
    iterator: fc.constantFrom<Json>(null, 'garbage', 'WzIsIjEiLCJ4Il0'),
  }),
  endpointsUpdate: record({
    endpointId: id('wh_'),
    url: fc.constantFrom<Json>('http://127.0.0.1:9/hook', 'not a url'),
    description: fc.string({ maxLength: 20 }),
    disabled: fc.constantFrom<Json>(true, false, null),
    rateLimit: fc.constantFrom<Json>(num(1), num(0), null),
  }),
  endpointsDelete: record({ endpointId: id('wh_') }),
  endpointSecretGet: record({ endpointId: id('wh_') }),
  advancedWebhookConfigGet: record({ organizationId: org }),
  advancedWebhookConfigUpdate: record({
    isEnabled: fc.constantFrom<Json>(true, false, null, num(1)),
    encryptData: fc.constantFrom<Json>(true, false, null),
    publicKey: fc.string({ maxLength: 20 }),
  }),
  webhookConfigGet: record({ organizationId: org }),
  webhookConfigUpdate: record({
    useWebhookService: fc.constantFrom<Json>(true, false, null),
    webhookServiceConfig: fc.constantFrom<Json>(
      obj([
        ['authToken', 't'],
        ['rawNotificationUrl', 'http://127.0.0.1:9/raw'],
      ]),
      obj([['rawNotificationUrl', 'not a url']]),
      obj([
        [
          'triggers',
          obj([
            ['comment.add', true],
            ['comment.update', false],
          ]),
        ],
      ]),
      obj([['triggers', obj([['huddle', true]])]]),
      null,
    ),
  }),
  webhookDeliveryReplay: record({ webhookId: id('wh_'), eventId: fc.constantFrom<Json>(num(1), num(2), num(0), num(-1), 'x') }),
  webhooksRecover: record({ webhookId: id('wh_'), since: fc.constantFrom<Json>(num(0), num(1), num(-1), num(1.5), 'x') }),
  webhookSecretRotate: record({ webhookId: id('wh_') }),
  ...workflowData(),
  ...serviceSettingsData(),
  ...presenceData(),
  ...retentionData(),
  ...reactionsData(),
  ...searchData(),
};

/** Approval workflows: a small graph (an agent, then a human with its reject path), its executions and steps. */
function workflowData() {
  const defId = fc.constantFrom('def-one', 'def-two');
  const exec = id('exec_');
  const step = id('step_');
  const nodes = fc.constant<Json>([
    obj([
      ['nodeId', 'a'],
      ['type', 'agent'],
      [
        'config',
        obj([
          ['agentId', 'x'],
          ['urlPath', 'u'],
        ]),
      ],
    ]),
    obj([
      ['nodeId', 'h'],
      ['type', 'human'],
      ['config', obj([['reviewerIds', ['u1']]])],
    ]),
  ]);
  const edges = fc.constant<Json>([
    obj([
      ['from', 'a'],
      ['to', 'h'],
    ]),
    obj([
      ['from', 'h'],
      ['to', 'a'],
      ['on', 'reject'],
      ['loop', obj([['maxIterations', num(2)]])],
    ]),
  ]);
  const definition = { definitionId: defId, name: fc.string({ maxLength: 20 }), nodes, edges };
  return {
    workflowDefinitionsCreate: record(definition),
    workflowDefinitionsUpdate: record({ ...definition, ifVersion: fc.constantFrom(num(1), num(2)) }),
    workflowDefinitionsGet: record({ definitionId: defId }),
    workflowDefinitionsList: record({ pageSize: fc.constantFrom(num(1), num(50)), cursor: time }),
    workflowDefinitionsDelete: record({ definitionId: defId, purge: fc.boolean() }),
    workflowExecutionsDispatch: record({ definitionId: defId, idempotencyKey: id('key'), triggerContext: freeObject }),
    workflowExecutionsGet: record({ executionId: exec }),
    workflowExecutionsList: record({
      definitionId: defId,
      status: fc.constantFrom('running', 'completed'),
      pageSize: fc.constant(num(5)),
    }),
    workflowExecutionsCancel: record({ executionId: exec, reason: fc.string({ maxLength: 20 }) }),
    workflowExecutionsGetEvents: record({
      executionId: exec,
      sinceSeq: fc.constantFrom(num(0), num(3)),
      pageSize: fc.constant(num(10)),
    }),
    workflowStepsResolve: record({
      executionId: exec,
      stepId: step,
      action: fc.constantFrom('force-fail', 'reviewer-approve'),
      actorId: uid,
    }),
    workflowStepsRecordReviewerDecision: record({
      executionId: exec,
      stepId: step,
      reviewerId: uid,
      decision: fc.constantFrom('approve', 'reject'),
    }),
    workflowStepsCancel: record({ executionId: exec, stepId: step, actorId: uid }),
    workflowStepsRecordAgentResolution: record({
      executionId: exec,
      stepId: step,
      responseId: fc.constantFrom('resp_1', 'resp_2'),
      resolution: fc.constantFrom('resolved', 'rejected'),
      actorId: uid,
    }),
  };
}

/** A whole request body as text: usually `{"data": ...}`, sometimes broken at the top or not JSON. */
export function bodyFor(op: keyof typeof PATHS): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 12, arbitrary: DATA[op].map((d) => toJson(obj([['data', d]]))) },
    { weight: 1, arbitrary: nasty.map((d) => toJson(obj([['data', d]]))) },
    { weight: 1, arbitrary: nasty.map(toJson) },
    {
      weight: 1,
      arbitrary: DATA[op].chain((d) =>
        fc.nat().map((n) => {
          const t = toJson(obj([['data', d]]));
          return t.slice(0, n % t.length);
        }),
      ),
    },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
  );
}

export const OPERATION_NAMES = Object.keys(PATHS) as (keyof typeof PATHS)[];

/** A request at the limits: where it goes, how, and its body (none for a preflight). */
export interface LimitRequest {
  op: keyof typeof PATHS;
  kind: string;
  method: 'POST' | 'OPTIONS';
  headers: Record<string, string>;
  body: string;
}

/** A string of exactly `n` characters that starts with `tag` (so no two are alike). */
const long = (tag: string, n: number): string => (tag + '-'.repeat(n)).slice(0, n);

/**
 * Requests as large and as costly as the default limits let them be, for the memory check of the fuzz
 * (fuzz.test.ts): bodies just under MARGINALIA_BODY_LIMIT, 100,000-character texts, profiles whose every
 * field is at its longest, pages of 1000, erasures of 1 to 4 users, preflights whose Origin is as long as
 * the headers allow. Organization `n` gets its own users, a thread by them and reads of it, so the
 * caches fill with new profiles and pages as the run goes on. Built from a seed, without fast-check:
 * the point is their size, not their shape.
 */
export function limitRequest(n: number): LimitRequest {
  const org = `limits-${n >> 3}`;
  const uid = (i: number) => long(`u-${org}-${i}`, 256);
  const who = (i: number) => ({ userId: uid(i), name: long(`name ${i}`, 256), email: long(`${i}@${org}.example`, 254) });
  const post = (op: keyof typeof PATHS, kind: string, data: unknown): LimitRequest => ({
    op,
    kind,
    method: 'POST',
    headers: {},
    body: JSON.stringify({ data }),
  });
  switch (n % 8) {
    case 0: // 300 profiles at their longest: about 870 kB.
      return post('usersAdd', 'longest profiles', {
        organizationId: org,
        users: Array.from({ length: 300 }, (_, i) => ({ ...who(i), photoUrl: long(`https://p.example/${org}/${i}?`, 2048) })),
      });
    case 1: // A thread of 9 comments of 100,000 characters, each by another of them: about 930 kB.
      return post('annotationsAdd', 'longest texts', {
        organizationId: org,
        documentId: 'doc-limits',
        commentAnnotations: [
          {
            annotationId: `thread-${n % 5}`,
            commentData: Array.from({ length: 9 }, (_, i) => ({ commentText: long(`${n}.${i}`, 100_000), from: who(i * 30) })),
          },
        ],
      });
    case 2: // Many small threads by many of them: a page shows hundreds of profiles.
      return post('annotationsAdd', 'many threads', {
        organizationId: org,
        documentId: 'doc-limits',
        commentAnnotations: Array.from({ length: 300 }, (_, i) => ({
          annotationId: `small-${i}`,
          commentData: [{ commentText: 'x', from: who(i) }],
        })),
      });
    case 3:
      return post('annotationsGet', 'pages of 1000', { organizationId: org, documentId: 'doc-limits', pageSize: 1000 });
    case 4: // One notification of 100,000 characters to 300 users, each of whom keeps its answer.
      return post('notificationsAdd', 'longest notification', {
        organizationId: org,
        documentId: 'doc-limits',
        actionUser: who(0),
        displayHeadlineMessageTemplate: '{actionUser} wrote',
        displayBodyMessage: long(`${n}`, 100_000),
        notifyUsers: Array.from({ length: 300 }, (_, i) => ({ userId: uid(i) })),
      });
    case 5:
      return n % 16 < 8
        ? post('notificationsGet', 'pages of 1000', { organizationId: org, userId: uid(n % 300), pageSize: 1000 })
        : post('usersGet', 'pages of 1000', { organizationId: org, pageSize: 1000 });
    case 6: // The erasure of 1 to 4 of them.
      return post('userDataDelete', 'erasures', {
        userIds: Array.from({ length: 1 + (n % 4) }, (_, i) => uid(((n >> 3) * 7 + i) % 300)),
      });
    default: // A preflight from an origin as long as the headers allow (no credentials, no rate limit).
      return {
        op: 'annotationsGet',
        kind: 'longest preflights',
        method: 'OPTIONS',
        headers: { origin: `https://${long(`o${n}`, 12_000)}.example`, 'access-control-request-method': 'POST' },
        body: '',
      };
  }
}
