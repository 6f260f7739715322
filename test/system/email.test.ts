// Email end to end (docs/operations.md, "Email"), with the real server process (dist/main.js: `npm run build` first)
// and a real SMTP server in this process (smtp-server; mails parsed with mailparser), on each database: both parts of
// a digest and their escaping, one mail per recipient per window grouped by document, the settings ALL, MINE and
// NONE and addresses that are not ones, the unsubscribe link, retries while the SMTP server refuses, and kill -9 of
// the server mid-digest then a restart: no notification left unmailed, duplicates at most the mails under way.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ParsedMail } from 'mailparser';
import { cliInBackground, freePort, post, startServer, stopServer, type ServerProcess } from '../helpers/server-process.js';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink.js';
import { freshDatabase, NEEDS_POSTGRES, STORE_KINDS, type FreshDatabase, type StoreKind } from '../helpers/test-database.js';

const creds = { apiKey: 'email-key', authToken: 'email-token-0123456789' };

async function serverEnv(db: FreshDatabase, smtp: SmtpSink, extra: Record<string, string> = {}) {
  const port = await freePort();
  return {
    ...db.env,
    PORT: String(port),
    MARGINALIA_API_KEY: creds.apiKey,
    MARGINALIA_AUTH_TOKEN: creds.authToken,
    MARGINALIA_RATE_LIMIT: '0',
    MARGINALIA_SMTP_URL: smtp.url,
    MARGINALIA_EMAIL_FROM: 'notifications@marginalia.test',
    MARGINALIA_EMAIL_DIGEST_SECONDS: '1',
    MARGINALIA_EMAIL_POLL_MS: '50',
    MARGINALIA_EMAIL_RETRY_MIN_MS: '100',
    MARGINALIA_EMAIL_RETRY_MAX_MS: '200',
    MARGINALIA_EMAIL_LEASE_MS: '1500',
    MARGINALIA_PUBLIC_URL: `http://127.0.0.1:${port}`,
    ...extra,
  };
}

async function ok(server: ServerProcess, path: string, data: unknown) {
  const r = await post(server.url, path, creds, data);
  assert.equal(r.status, 200, `${path}: ${r.text}`);
  return r;
}

const to = (m: ParsedMail) => (Array.isArray(m.to) ? m.to[0] : m.to)?.value[0]?.address;
const mailsTo = (smtp: SmtpSink, address: string) => smtp.mails.filter((m) => to(m) === address);

/** Until the outbox holds no pending row (each sent, skipped or failed). */
async function settled(db: FreshDatabase): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Number((await db.query(`SELECT count(*) AS n FROM email_outbox WHERE status = 'pending'`))[0]!.n) > 0) {
    if (Date.now() > deadline) throw new Error('the outbox did not settle');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function withSetup<T>(kind: StoreKind, fn: (db: FreshDatabase, smtp: SmtpSink) => Promise<T>): Promise<T> {
  const db = freshDatabase(kind);
  const smtp = await startSmtpSink();
  try {
    return await fn(db, smtp);
  } finally {
    await smtp.close();
    await db.drop();
  }
}

describe('email end to end', () => {
  test('marginalia email test <address>: one sample mail through the SMTP server; a refusal and a bad address say so', async () => {
    const smtp = await startSmtpSink();
    try {
      const env = { MARGINALIA_SMTP_URL: smtp.url, MARGINALIA_EMAIL_FROM: 'ops@marginalia.test' };
      const sent = await cliInBackground(['email', 'test', 'admin@example.com'], env);
      assert.equal(sent.code, 0, sent.stderr);
      assert.deepEqual(JSON.parse(sent.stdout), {
        sent: true,
        to: 'admin@example.com',
        from: 'ops@marginalia.test',
        smtp: smtp.url.replace('s3cret', '***'),
      });
      assert.equal(smtp.mails.length, 1);
      assert.match(smtp.mails[0]!.text ?? '', /the SMTP settings work/);
      assert.ok(String(smtp.mails[0]!.html).includes('A test mail'));
      smtp.refusals.push([550, 'relay denied']);
      const refused = await cliInBackground(['email', 'test', 'admin@example.com'], env);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /SMTP 550.*relay denied/);
      const bad = await cliInBackground(['email', 'test', 'admin@example.com\r\nBcc: x@evil.test'], env);
      assert.equal(bad.code, 2);
      const off = await cliInBackground(['email', 'test', 'admin@example.com'], {});
      assert.equal(off.code, 1);
      assert.match(off.stderr, /MARGINALIA_SMTP_URL/);
    } finally {
      await smtp.close();
    }
  });

  test('postgres: two servers on one database send each mail once', { skip: NEEDS_POSTGRES }, async () => {
    await withSetup('postgres', async (db, smtp) => {
      const users = Array.from({ length: 30 }, (_, i) => `u${i}`);
      const servers = [
        await startServer({ env: await serverEnv(db, smtp, { MARGINALIA_EMAIL_DIGEST_SECONDS: '0' }) }),
        await startServer({ env: await serverEnv(db, smtp, { MARGINALIA_EMAIL_DIGEST_SECONDS: '0' }) }),
      ];
      try {
        await ok(servers[0]!, '/v1/users/add', {
          organizationId: 'o',
          users: users.map((userId) => ({ userId, email: `${userId}@example.com` })),
        });
        smtp.delayMs = 5;
        for (let i = 0; i < users.length; i += 10)
          await ok(servers[(i / 10) % 2]!, '/v1/notifications/add', {
            organizationId: 'o',
            notificationId: `n${i}`,
            actionUser: { userId: 'a' },
            displayHeadlineMessageTemplate: 'shared',
            notifyUsers: users.slice(i, i + 10).map((userId) => ({ userId })),
          });
        await smtp.until(() => new Set(smtp.mails.map(to)).size === users.length, 20_000, 'every user mailed');
        await settled(db);
        assert.equal(smtp.mails.length, users.length, 'no mail twice');
        const sent = await Promise.all(
          servers.map(async (server) => {
            const metrics = await (await fetch(`${server.url}/metrics`)).text();
            return Number(/marginalia_email_mails_total\{outcome="sent"\} (\d+)/.exec(metrics)?.[1]);
          }),
        );
        console.log(`# postgres, two servers: mails sent by each ${sent.join(' and ')}`);
        assert.equal(sent[0]! + sent[1]!, users.length, 'each mail counted by the one server that sent it');
      } finally {
        await Promise.all(servers.map((s) => stopServer(s)));
      }
    });
  });

  for (const kind of STORE_KINDS) {
    test(`${kind}: digests by window and document, both parts escaped, settings and addresses, unsubscribe`, async () => {
      await withSetup(kind, async (db, smtp) => {
        const server = await startServer({ env: await serverEnv(db, smtp, { MARGINALIA_EMAIL_DIGEST_SECONDS: '2' }) });
        try {
          await ok(server, '/v1/users/add', {
            organizationId: 'acme',
            documentId: 'spec',
            users: [
              { userId: 'ann', name: 'Ann', email: 'ann@example.com' },
              { userId: 'bob', name: 'Bob <img src=x onerror=alert(1)>', email: 'bob@example.com' },
              { userId: 'cy', name: 'Cy', email: 'cy at example.com' },
              { userId: 'dee', name: 'Dee', email: 'dee@example.com' },
              { userId: 'eve', name: 'Eve', email: 'eve@example.com' },
              { userId: 'fay', name: 'Fay', email: 'fay@example.com' },
              { userId: 'gus', name: 'Gus', email: 'gus@example.com\r\nBcc: x@evil.test' },
            ],
          });
          await ok(server, '/v1/organizations/documents/add', {
            organizationId: 'acme',
            documents: [
              { documentId: 'spec', documentName: 'The <Spec>' },
              { documentId: 'plan', documentName: 'Plan' },
            ],
          });
          // dee: NONE for the organization; eve and fay: members told of every comment (inbox ALL), eve mailed of all.
          // The organization-level setting: /v2's config/set without documentIds.
          await ok(server, '/v2/notifications/config/set', {
            organizationId: 'acme',
            userIds: ['dee'],
            config: { email: 'NONE' },
          });
          await ok(server, '/v1/notifications/config/set', {
            organizationId: 'acme',
            documentIds: ['spec'],
            userIds: ['eve', 'fay'],
            config: { inbox: 'ALL' },
          });
          await ok(server, '/v1/notifications/config/set', {
            organizationId: 'acme',
            documentIds: ['spec'],
            userIds: ['eve'],
            config: { email: 'ALL' },
          });
          const listed = ['bob', 'cy', 'dee', 'gus'].map((userId) => ({ userId }));
          const add = (notificationId: string, documentId: string | undefined, headline: string, body: string) =>
            ok(server, '/v1/notifications/add', {
              organizationId: 'acme',
              ...(documentId ? { documentId } : {}),
              notificationId,
              actionUser: { userId: 'ann' },
              displayHeadlineMessageTemplate: headline,
              displayHeadlineMessageTemplateData: { actionUser: { userId: 'ann' } },
              displayBodyMessage: body,
              notifyUsers: listed,
            });
          await add('n1', 'spec', '{actionUser} said "Tom & Jerry" <b>ok</b>', 'first <script>alert(1)</script> body');
          await add('n2', 'spec', '{actionUser} replied', 'second');
          await add('n3', 'plan', '{actionUser} planned', 'third');
          await add('n4', undefined, 'Org news', 'fourth');
          // A comment: eve and fay are told as members (not concerning them); eve's email setting ALL mails her, fay's MINE not.
          await ok(server, '/v1/commentannotations/add', {
            organizationId: 'acme',
            documentId: 'spec',
            triggerNotification: true,
            commentAnnotations: [{ annotationId: 't1', commentData: [{ commentText: 'a comment', from: { userId: 'ann' } }] }],
          });
          await smtp.until(
            () => mailsTo(smtp, 'bob@example.com').length >= 1 && mailsTo(smtp, 'eve@example.com').length >= 1,
            15_000,
            'bob and eve',
          );
          // Every row decided (sent or skipped): nothing else comes.
          await settled(db);
          const bob = mailsTo(smtp, 'bob@example.com');
          assert.equal(bob.length, 1, 'one digest for bob: four notifications in one window');
          assert.equal(mailsTo(smtp, 'eve@example.com').length, 1);
          assert.deepEqual(
            smtp.mails.map(to).sort(),
            ['bob@example.com', 'eve@example.com'],
            'cy (no address), dee (NONE), fay (MINE, not hers), gus (not one address), ann (author): none',
          );
          const mail = bob[0]!;
          assert.equal(mail.from?.value[0]?.address, 'notifications@marginalia.test');
          assert.equal(mail.subject, '4 new notifications in acme');
          const text = mail.text ?? '';
          const html = String(mail.html);
          // Grouped by document: spec (two), plan, the organization.
          for (const t of ['== The <Spec> ==', '== Plan ==', '== acme (organization-wide) ==']) assert.ok(text.includes(t), t);
          assert.ok(
            text.indexOf('Ann replied') > text.indexOf('Ann said') && text.indexOf('Ann planned') > text.indexOf('Ann replied'),
          );
          assert.ok(text.includes('Hello Bob <img src=x onerror=alert(1)>,'), 'the text part is text');
          assert.ok(text.includes('Ann said "Tom & Jerry" ok'), "the headline's text, not its markup");
          assert.ok(html.includes('Hello Bob &lt;img src=x onerror=alert(1)&gt;,'), 'user text escaped in HTML');
          assert.ok(html.includes('Ann said &quot;Tom &amp; Jerry&quot; ok'));
          assert.ok(html.includes('The &lt;Spec&gt;'));
          assert.ok(!/<img|<script|<b>/i.test(html), 'no markup of user text in the HTML part');
          // The unsubscribe link: in both parts and the List-Unsubscribe header; tampered refused; good one sets NONE.
          // mailparser reads the List-* headers into one: list.unsubscribe.url.
          const header = mail.headers.get('list') as { unsubscribe?: { url?: string } } | undefined;
          const link = header?.unsubscribe?.url;
          assert.ok(link, `List-Unsubscribe: ${JSON.stringify(header)}`);
          assert.ok(text.includes(link), `the text part has the link: ${link}\n${text}`);
          assert.ok(html.includes(link), 'the HTML part has the link');
          const tampered = link.replace(/token=u1\.([A-Za-z0-9_-])/, (_m, c: string) => `token=u1.${c === 'A' ? 'B' : 'A'}`);
          const refused = await fetch(tampered);
          assert.equal(refused.status, 400);
          assert.match(await refused.text(), /not valid/);
          const page = await fetch(link);
          assert.equal(page.status, 200);
          assert.match(page.headers.get('content-type') ?? '', /text\/html/);
          assert.match(await page.text(), /You are unsubscribed/);
          const config = await ok(server, '/v1/notifications/config/get', {
            organizationId: 'acme',
            userId: 'bob',
            documentIds: ['spec'],
          });
          assert.equal(JSON.parse(config.text).result.data[0].config.email, 'NONE');
          // Unsubscribed: the next notification is not mailed to bob.
          await add('n5', 'spec', 'after', 'after');
          await settled(db);
          const skipped = await db.query(
            `SELECT status, error FROM email_outbox WHERE notification_id = 'n5' AND user_id = 'bob'`,
          );
          assert.deepEqual(
            skipped.map((r) => [r.status, r.error]),
            [['skipped', 'setting']],
          );
          assert.equal(mailsTo(smtp, 'bob@example.com').length, 1);
          const metrics = await (await fetch(`${server.url}/metrics`)).text();
          assert.match(metrics, /marginalia_email_mails_total\{outcome="sent"\} 2/);
          assert.match(metrics, /marginalia_email_queued 0/);
        } finally {
          await stopServer(server);
        }
      });
    });

    test(`${kind}: retried while the SMTP server refuses (4xx, 5xx), then sent once`, async () => {
      await withSetup(kind, async (db, smtp) => {
        const server = await startServer({ env: await serverEnv(db, smtp, { MARGINALIA_EMAIL_DIGEST_SECONDS: '0' }) });
        try {
          await ok(server, '/v1/users/add', { organizationId: 'o', users: [{ userId: 'u', email: 'u@example.com' }] });
          smtp.refusals.push([451, 'try again later'], [554, 'transaction failed'], [421, 'busy']);
          await ok(server, '/v1/notifications/add', {
            organizationId: 'o',
            notificationId: 'n',
            actionUser: { userId: 'a' },
            displayHeadlineMessageTemplate: 'hello',
            notifyUsers: [{ userId: 'u' }],
          });
          await smtp.until(() => smtp.mails.length === 1, 15_000, 'the mail after three refusals');
          assert.equal(smtp.refused, 3);
          await new Promise((r) => setTimeout(r, 500));
          assert.equal(smtp.mails.length, 1, 'sent once');
          const metrics = await (await fetch(`${server.url}/metrics`)).text();
          assert.match(metrics, /marginalia_email_mails_total\{outcome="retrying"\} 3/);
          const rows = await db.query('SELECT status, attempts FROM email_outbox');
          assert.deepEqual(
            rows.map((r) => [r.status, Number(r.attempts)]),
            [['sent', 4]],
          );
        } finally {
          await stopServer(server);
        }
      });
    });

    test(`${kind}: kill -9 mid-digest, then a restart: every notification mailed, duplicates at most the mails under way`, async () => {
      await withSetup(kind, async (db, smtp) => {
        const env = await serverEnv(db, smtp, { MARGINALIA_EMAIL_DIGEST_SECONDS: '0' });
        const users = Array.from({ length: 80 }, (_, i) => `user${i}`);
        let server = await startServer({ env });
        try {
          await ok(server, '/v1/users/add', {
            organizationId: 'o',
            users: users.map((userId) => ({ userId, email: `${userId}@example.com` })),
          });
          smtp.delayMs = 40;
          for (let i = 0; i < users.length; i += 20)
            await ok(server, '/v1/notifications/add', {
              organizationId: 'o',
              notificationId: `n${i}`,
              actionUser: { userId: 'a' },
              displayHeadlineMessageTemplate: 'batch',
              notifyUsers: users.slice(i, i + 20).map((userId) => ({ userId })),
            });
          await smtp.until(() => smtp.mails.length >= 10, 15_000, 'ten mails');
          server.proc.kill('SIGKILL');
          await server.exited;
          const atKill = smtp.mails.length;
          smtp.delayMs = 0;
          const restarted = Date.now();
          server = await startServer({ env });
          await smtp.until(() => new Set(smtp.mails.map(to)).size === users.length, 20_000, 'every user mailed');
          const seconds = (Date.now() - restarted) / 1000;
          const duplicates = smtp.mails.length - users.length;
          // The rate once mails flow again (the start and the lease of the killed claims left out).
          const after = smtp.takenAt.slice(atKill);
          const rate = (after.length - 1) / Math.max(0.001, (after[after.length - 1]! - after[0]!) / 1000);
          console.log(
            `# ${kind}: ${atKill} mails before kill -9, ${after.length} after the restart, all within ${seconds.toFixed(1)} s of it; ` +
              `${rate.toFixed(0)} mails/s through the test SMTP server; duplicates ${duplicates}, lost 0`,
          );
          assert.ok(duplicates <= 4, `at most the mails under way at the kill (4): ${duplicates}`);
        } finally {
          await stopServer(server);
        }
      });
    });
  }
});
