// The workspace's service settings (docs/api.md, "Workspace service settings"): /v2's emailconfig,
// notificationconfig and permissionproviderconfig pages, on the configured database. Happy: the pages'
// defaults until set, their examples, seeding on first enable, merges that keep what a change does not
// name. Errors: the documented messages (at least one member, ranges, a provider URL that is not http(s)
// or not public), nothing changed. Security: credentials first, tenants apart, not served on v1. Acted
// on: the notification service's comment triggers decide which comment writes fan out notifications.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { STANDARD_COMMENT_TRIGGERS, STANDARD_EMAIL_TRIGGERS } from '../../src/domain/service-settings.js';
import { expectError, makeTestApp, PATHS, type TestApp } from '../helpers/app.js';
import { badCredentialCases, expectBadCredentials, expectMissingCredentials } from '../helpers/security.js';
import { uniq } from '../helpers/threads.js';

let t: TestApp;
before(async () => {
  t = await makeTestApp();
});
after(async () => t.close());

type Caller = TestApp['a'];

/** A new tenant: settings are the tenant's, and each test starts from the defaults. */
const fresh = () => t.tenant(uniq('tenant'));

/** The configuration as stored (not as shown): secrets are kept whole, for the features that send them. */
async function storedConfig(c: Caller, service: string): Promise<Record<string, unknown>> {
  const rows = await t.db.query(
    `SELECT s.config FROM service_settings s JOIN tenants n ON n.id = s.tenant_id
      WHERE n.api_key = '${c.creds.apiKey}' AND s.service = '${service}'`,
  );
  return JSON.parse(rows[0]!.config as string);
}

/** A public address written as one: the SSRF guard passes it without asking a resolver. */
const PUBLIC_URL = 'https://93.184.215.14/permissions';

const EMAIL_DEFAULT = {
  useEmailService: false,
  emailServiceConfig: { type: 'default', apiKey: '', fromEmail: '', fromCompany: '', commentTemplateId: '', tagTemplateId: '' },
};
const level = { isEnabled: false, batchWindowSeconds: 10, maxActivities: 2 };
const NOTIFICATION_DEFAULT = {
  useNotificationService: false,
  notificationServiceConfig: {
    triggers: { comment: {}, huddle: {} },
    delayConfig: { isEnabled: false, delaySeconds: 10 },
    batchConfig: { document: level, user: level },
  },
};
const PERMISSION_DEFAULT = {
  usePermissionProvider: false,
  permissionProviderConfig: { permissionProviderUrl: '', authToken: '' },
};

const get = async (c: Caller, path: string, message: string) => {
  const r = await c.ok(path, {});
  assert.equal(r.message, message);
  return r.data;
};
const emailOf = (c: Caller) => get(c, PATHS.emailConfigGet, 'Email configuration retrieved successfully.');
const notificationOf = (c: Caller) => get(c, PATHS.notificationConfigGet, 'Notification configuration retrieved successfully.');
const permissionOf = (c: Caller) =>
  get(c, PATHS.permissionProviderConfigGet, 'Permission provider configuration retrieved successfully.');

describe('service settings: happy paths', () => {
  test('never set, each page answers the defaults it documents', async () => {
    const c = await fresh();
    assert.deepEqual(await emailOf(c), EMAIL_DEFAULT);
    assert.deepEqual(await notificationOf(c), NOTIFICATION_DEFAULT);
    assert.deepEqual(await permissionOf(c), PERMISSION_DEFAULT);
  });

  test("notificationconfig/update: the page's example seeds the triggers, keeps the defaults, and get reads it back", async () => {
    const c = await fresh();
    const r = await c.ok(PATHS.notificationConfigUpdate, {
      useNotificationService: true,
      notificationServiceConfig: { delayConfig: { isEnabled: true, delaySeconds: 30 } },
    });
    assert.equal(r.message, 'Notification configuration updated successfully.');
    const expected = {
      useNotificationService: true,
      notificationServiceConfig: {
        triggers: { comment: STANDARD_COMMENT_TRIGGERS, huddle: { created: true, join: true } },
        delayConfig: { isEnabled: true, delaySeconds: 30 },
        batchConfig: { document: level, user: level },
      },
    };
    assert.deepEqual(r.data, expected);
    assert.equal(r.data.notificationServiceConfig.triggers.comment.suggestionAccepted, undefined, 'the opt-in ones stay off');
    assert.deepEqual(await notificationOf(c), expected);
  });

  test('notificationconfig/update deep-merges: what a change does not name is kept; triggers already there are not seeded', async () => {
    const c = await fresh();
    await c.ok(PATHS.notificationConfigUpdate, { notificationServiceConfig: { triggers: { comment: { added: true } } } });
    await c.ok(PATHS.notificationConfigUpdate, { notificationServiceConfig: { batchConfig: { user: { isEnabled: true } } } });
    const r = await c.ok(PATHS.notificationConfigUpdate, { useNotificationService: true });
    assert.deepEqual(r.data.notificationServiceConfig.triggers, { comment: { added: true }, huddle: {} });
    assert.deepEqual(r.data.notificationServiceConfig.batchConfig, {
      document: level,
      user: { isEnabled: true, batchWindowSeconds: 10, maxActivities: 2 },
    });
    const off = await c.ok(PATHS.notificationConfigUpdate, { useNotificationService: false });
    assert.equal(off.data.useNotificationService, false);
    assert.deepEqual(
      off.data.notificationServiceConfig.triggers.comment,
      { added: true },
      'switching off keeps the configuration',
    );
  });

  test("emailconfig/update: the page's example, seeded on first enable, the values sent over the seeded ones", async () => {
    const c = await fresh();
    const sent = { type: 'sendgrid', apiKey: 'SG.xxxxxxxxxx', fromEmail: 'noreply@example.com', fromCompany: 'Example Corp' };
    const r = await c.ok(PATHS.emailConfigUpdate, { useEmailService: true, emailServiceConfig: sent });
    assert.equal(r.message, 'Email configuration updated successfully.');
    const expected = {
      useEmailService: true,
      emailServiceConfig: { ...sent, commentTemplateId: '', tagTemplateId: '', triggers: STANDARD_EMAIL_TRIGGERS },
    };
    assert.deepEqual(r.data, expected, 'the answer to the update shows the key as sent, as the page prints it');
    const masked = { ...expected, emailServiceConfig: { ...expected.emailServiceConfig, apiKey: 'SG....xxxxxxxxxx' } };
    assert.deepEqual(await emailOf(c), masked, 'every later read shows the key masked');
    assert.equal((await storedConfig(c, 'email')).apiKey, 'SG.xxxxxxxxxx', 'kept whole, for the mail it will send');
    const renamed = await c.ok(PATHS.emailConfigUpdate, {
      emailServiceConfig: { fromCompany: 'Renamed', triggers: { 'comment.add': false } },
    });
    assert.equal(renamed.data.emailServiceConfig.apiKey, 'SG....xxxxxxxxxx', 'members not sent are kept, the key masked');
    assert.equal(renamed.data.emailServiceConfig.triggers['comment.add'], false);
    assert.equal(renamed.data.emailServiceConfig.triggers['comment_annotation.add'], true);
  });

  test('emailconfig/update: type "custom" enables the service and seeds its triggers', async () => {
    const c = await fresh();
    const r = await c.ok(PATHS.emailConfigUpdate, { emailServiceConfig: { type: 'custom' } });
    assert.equal(r.data.useEmailService, true);
    assert.equal(r.data.emailServiceConfig.type, 'custom');
    assert.deepEqual(r.data.emailServiceConfig.triggers, STANDARD_EMAIL_TRIGGERS);
    const off = await c.ok(PATHS.emailConfigUpdate, { useEmailService: false });
    assert.equal(off.data.useEmailService, false);
  });

  test("permissionproviderconfig/update: the page's example; the token is kept when only the URL changes; '' clears it", async () => {
    const c = await fresh();
    const r = await c.ok(PATHS.permissionProviderConfigUpdate, {
      usePermissionProvider: true,
      permissionProviderConfig: { permissionProviderUrl: PUBLIC_URL, authToken: 'provider_auth_token_here' },
    });
    assert.deepEqual(r, { status: 'success', message: 'Permission provider configuration updated successfully.' }, 'no data');
    const masked = 'provid...xxxxxxxxxxxxxxxxxx';
    const expected = {
      usePermissionProvider: true,
      permissionProviderConfig: { permissionProviderUrl: PUBLIC_URL, authToken: masked },
    };
    assert.deepEqual(await permissionOf(c), expected, 'the token is shown masked');
    await c.ok(PATHS.permissionProviderConfigUpdate, {
      permissionProviderConfig: { permissionProviderUrl: 'http://198.51.100.20:8080/decide' },
    });
    assert.equal((await permissionOf(c)).permissionProviderConfig.authToken, masked);
    assert.equal((await storedConfig(c, 'permission_provider')).authToken, 'provider_auth_token_here', 'kept whole');
    await c.ok(PATHS.permissionProviderConfigUpdate, { permissionProviderConfig: { permissionProviderUrl: '' } });
    assert.deepEqual(await permissionOf(c), {
      usePermissionProvider: true,
      permissionProviderConfig: { permissionProviderUrl: '', authToken: masked },
    });
    await c.ok(PATHS.permissionProviderConfigUpdate, { permissionProviderConfig: { authToken: '' } });
    assert.equal((await permissionOf(c)).permissionProviderConfig.authToken, '', "'' clears it");
  });

  test('permissionproviderconfig/update: enabling with no configuration seeds an empty one', async () => {
    const c = await fresh();
    await c.ok(PATHS.permissionProviderConfigUpdate, { usePermissionProvider: true });
    assert.deepEqual(await permissionOf(c), { ...PERMISSION_DEFAULT, usePermissionProvider: true });
  });
});

describe('service settings: errors', () => {
  test('an update naming neither member is INVALID_ARGUMENT with the documented message; nulls count as absent', async () => {
    const cases: [string, string, string][] = [
      [PATHS.notificationConfigUpdate, 'useNotificationService', 'notificationServiceConfig'],
      [PATHS.emailConfigUpdate, 'useEmailService', 'emailServiceConfig'],
      [PATHS.permissionProviderConfigUpdate, 'usePermissionProvider', 'permissionProviderConfig'],
    ];
    for (const [path, flag, config] of cases) {
      for (const data of [{}, { [flag]: null, [config]: null }]) {
        const message = expectError(await t.a.post(path, data), 400, 'INVALID_ARGUMENT', path);
        assert.equal(message, `At least one of ${flag} or ${config} must be provided`);
      }
    }
  });

  test('notificationconfig/update: numbers out of their ranges, or not integers, are refused and change nothing', async () => {
    const c = await fresh();
    const bad = [
      { delayConfig: { delaySeconds: 9 } },
      { delayConfig: { delaySeconds: 15_552_001 } },
      { delayConfig: { delaySeconds: 30.5 } },
      { delayConfig: { delaySeconds: '30' } },
      { batchConfig: { document: { batchWindowSeconds: 604_801 } } },
      { batchConfig: { user: { maxActivities: 1 } } },
      { batchConfig: { user: { maxActivities: 51 } } },
      { triggers: { comment: { added: 'yes' } } },
    ];
    for (const notificationServiceConfig of bad) {
      const r = await c.post(PATHS.notificationConfigUpdate, { useNotificationService: true, notificationServiceConfig });
      const message = expectError(r, 400, 'INVALID_ARGUMENT', JSON.stringify(notificationServiceConfig));
      assert.match(message, /data\.notificationServiceConfig\./);
    }
    assert.deepEqual(await notificationOf(c), NOTIFICATION_DEFAULT);
    for (const edge of [10, 15_552_000]) {
      const r = await c.ok(PATHS.notificationConfigUpdate, {
        notificationServiceConfig: { delayConfig: { delaySeconds: edge } },
      });
      assert.equal(r.data.notificationServiceConfig.delayConfig.delaySeconds, edge);
    }
  });

  test('emailconfig/update: an unknown type or a malformed sender address is the documented message, nothing changed', async () => {
    const c = await fresh();
    for (const emailServiceConfig of [{ type: 'smtp' }, { fromEmail: 'not-an-email' }, { fromEmail: 'a b@example.com' }]) {
      const message = expectError(
        await c.post(PATHS.emailConfigUpdate, { useEmailService: true, emailServiceConfig }),
        400,
        'INVALID_ARGUMENT',
      );
      assert.match(message, /^Invalid email service configuration\. data\.emailServiceConfig\.(type|fromEmail) /);
    }
    assert.deepEqual(await emailOf(c), EMAIL_DEFAULT);
    const cleared = await c.ok(PATHS.emailConfigUpdate, { emailServiceConfig: { fromEmail: '' } });
    assert.equal(cleared.data.emailServiceConfig.fromEmail, '');
  });

  test('permissionproviderconfig/update: not http(s) is "Please enter a valid URL"; internal addresses are refused', async () => {
    const c = await fresh();
    const update = (permissionProviderUrl: string) =>
      c.post(PATHS.permissionProviderConfigUpdate, {
        usePermissionProvider: true,
        permissionProviderConfig: { permissionProviderUrl },
      });
    for (const url of [
      'not a url',
      'ftp://93.184.215.14/x',
      'javascript:alert(1)',
      'https://user:pw@93.184.215.14/x',
      '/relative',
    ]) {
      assert.equal(expectError(await update(url), 400, 'INVALID_ARGUMENT', url), 'Please enter a valid URL', url);
    }
    for (const url of [
      'http://127.0.0.1/p',
      'https://10.1.2.3/p',
      'http://[::1]:8080/p',
      'http://169.254.169.254/latest',
      'http://[::ffff:192.168.1.1]/',
    ]) {
      const message = expectError(await update(url), 400, 'INVALID_ARGUMENT', url);
      assert.match(
        message,
        /^data\.permissionProviderConfig\.permissionProviderUrl: .* address\. A permission provider may not be/,
        url,
      );
    }
    assert.deepEqual(await permissionOf(c), PERMISSION_DEFAULT, 'nothing was written');
  });

  test('MARGINALIA_WEBHOOK_ALLOW_PRIVATE lets a provider on an internal address be set', async () => {
    const open = await makeTestApp({ config: { webhookAllowPrivate: true } });
    try {
      await open.a.ok(PATHS.permissionProviderConfigUpdate, {
        permissionProviderConfig: { permissionProviderUrl: 'http://127.0.0.1:9000/decide' },
      });
      const r = await open.a.ok(PATHS.permissionProviderConfigGet, {});
      assert.equal(r.data.permissionProviderConfig.permissionProviderUrl, 'http://127.0.0.1:9000/decide');
      assert.equal(r.data.usePermissionProvider, false, 'setting the URL does not switch the provider on');
    } finally {
      await open.close();
    }
  });
});

describe('service settings: security', () => {
  const paths = [
    PATHS.emailConfigGet,
    PATHS.emailConfigUpdate,
    PATHS.notificationConfigGet,
    PATHS.notificationConfigUpdate,
    PATHS.permissionProviderConfigGet,
    PATHS.permissionProviderConfigUpdate,
  ];
  for (const path of paths) {
    test(`${path}: missing or bad credentials are 401 before the body is looked at; not served on v1`, async () => {
      await expectMissingCredentials(t, path, { data: 'not even an object' });
      for (const [label, headers] of badCredentialCases(t)) await expectBadCredentials(t, path, label, headers, { data: {} });
      const v1 = await t.a.post(path.replace(/^\/v2\//, '/v1/'), {});
      assert.equal(v1.status, 404, v1.body);
    });
  }

  test("one tenant's settings are its own: another reads its defaults and its changes touch nothing of the first's", async () => {
    const [a, b] = [await fresh(), await fresh()];
    await a.ok(PATHS.permissionProviderConfigUpdate, {
      usePermissionProvider: true,
      permissionProviderConfig: { permissionProviderUrl: PUBLIC_URL, authToken: 'a-secret' },
    });
    await a.ok(PATHS.emailConfigUpdate, { useEmailService: true, emailServiceConfig: { apiKey: 'SG.a' } });
    await a.ok(PATHS.notificationConfigUpdate, { useNotificationService: true });
    assert.deepEqual(await permissionOf(b), PERMISSION_DEFAULT);
    assert.deepEqual(await emailOf(b), EMAIL_DEFAULT);
    assert.deepEqual(await notificationOf(b), NOTIFICATION_DEFAULT);
    await b.ok(PATHS.permissionProviderConfigUpdate, { permissionProviderConfig: { authToken: 'b-token' } });
    assert.equal((await storedConfig(a, 'permission_provider')).authToken, 'a-secret');
    assert.equal((await storedConfig(a, 'email')).apiKey, 'SG.a');
  });
});

describe('the notification service acts on the comment fan-out', () => {
  const DOC = 'doc-n';
  /** Notifications the user got in the document (one per fanned-out comment write). */
  const inbox = async (c: Caller, org: string, userId: string) =>
    ((await c.ok(PATHS.notificationsGet, { organizationId: org, documentId: DOC, userId })).data as unknown[]).length;
  const tagged = (text: string, from: string, userId: string) => ({
    commentText: text,
    from: { userId: from },
    taggedUserContacts: [{ userId, text: `@${userId}` }],
  });
  /** One of each comment write with triggerNotification, each mentioning `m`: a new thread, a reply, an edit. */
  async function writes(c: Caller, org: string, annotationId: string) {
    await c.ok(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: DOC,
      commentAnnotations: [{ annotationId, commentData: [tagged('first', 'p', 'm')] }],
      triggerNotification: true,
    });
    const [commentId] = (
      await c.ok(PATHS.commentsAdd, {
        organizationId: org,
        documentId: DOC,
        annotationId,
        commentData: [tagged('reply', 'q', 'm')],
        triggerNotification: true,
      })
    ).data as number[];
    await c.ok(PATHS.commentsUpdate, {
      organizationId: org,
      documentId: DOC,
      annotationId,
      commentIds: [commentId],
      updatedData: { commentText: 'edited', taggedUserContacts: [{ userId: 'm', text: '@m' }] },
      triggerNotification: true,
    });
  }

  test('off (never set, or switched off): every write notifies, as without the service', async () => {
    const c = await fresh();
    const org = uniq('org');
    await writes(c, org, 'a1');
    assert.equal(await inbox(c, org, 'm'), 3);
    await c.ok(PATHS.notificationConfigUpdate, {
      useNotificationService: false,
      notificationServiceConfig: { triggers: { comment: {} } },
    });
    await writes(c, org, 'a2');
    assert.equal(await inbox(c, org, 'm'), 6, 'the triggers are not in force while the service is off');
  });

  test('on with the seeded triggers: every write notifies; with its comment triggers off: none is fanned out or added', async () => {
    const c = await fresh();
    const org = uniq('org');
    await c.ok(PATHS.notificationConfigUpdate, { useNotificationService: true });
    await writes(c, org, 'a1');
    assert.equal(await inbox(c, org, 'm'), 3);
    await c.ok(PATHS.notificationConfigUpdate, {
      notificationServiceConfig: { triggers: { comment: { newlyAdded: false, added: false, updated: false } } },
    });
    await writes(c, org, 'a2');
    assert.equal(await inbox(c, org, 'm'), 3, 'no notification for these writes');
    assert.equal((await c.ok(PATHS.notificationsCount, { organizationId: org, userId: 'm' })).data.total, 3, 'nor in the counts');
  });

  test('each trigger decides its own write: newlyAdded (a new thread), added (a reply), updated (an edit)', async () => {
    const c = await fresh();
    await c.ok(PATHS.notificationConfigUpdate, { useNotificationService: true });
    for (const [trigger, left] of [
      ['newlyAdded', 2],
      ['added', 2],
      ['updated', 2],
    ] as const) {
      const org = uniq('org');
      const triggers = { newlyAdded: true, added: true, updated: true, [trigger]: false };
      await c.ok(PATHS.notificationConfigUpdate, { notificationServiceConfig: { triggers: { comment: triggers } } });
      await writes(c, org, 'a1');
      const got = (await c.ok(PATHS.notificationsGet, { organizationId: org, documentId: DOC, userId: 'm' })).data as any[];
      assert.equal(got.length, left, trigger);
      const bodies = got.map((n) => n.displayBodyMessage).sort();
      const silenced = { newlyAdded: 'first', added: 'reply', updated: 'edited' }[trigger];
      assert.ok(!bodies.includes(silenced), `${trigger}: ${bodies}`);
    }
  });

  test("another tenant's notification service does not silence this tenant's notifications", async () => {
    const [a, b] = [await fresh(), await fresh()];
    await a.ok(PATHS.notificationConfigUpdate, {
      useNotificationService: true,
      notificationServiceConfig: { triggers: { comment: { added: false } } },
    });
    const org = uniq('org');
    await writes(b, org, 'a1');
    assert.equal(await inbox(b, org, 'm'), 3);
  });
});
