// The email outbox (docs/decisions.md, "Email (issue 40)"), on the configured database: rows drafted in the
// notification's transaction while email is on (none while it is off), a mention due at once and the rest after the
// window, an organization-wide notification drafting the users with ALL, claims exclusive under a lease (a second
// claimer gets nothing until the lease ends), a finish only by the claimer, the queue's stats and the unsubscribe;
// an erasure takes the user's mails.
import { test } from 'node:test';
import { describe } from 'node:test';
import { HEADLINES } from '../../src/domain/fan-out.js';
import { freshDatabase, TEST_STORE } from '../helpers/test-database.js';
import { eq, notification, ORG, storeTest, T0, TA } from '../helpers/store-fixtures.js';

const EMAIL_ON = {
  MARGINALIA_SMTP_URL: 'smtp://127.0.0.1:9',
  MARGINALIA_EMAIL_FROM: 'n@example.com',
  MARGINALIA_EMAIL_DIGEST_SECONDS: '60',
};

describe(`${TEST_STORE} store: the email outbox`, () => {
  test('drafted with each notification: listed users, mentions at once, the organization-wide to ALL; claims exclusive', async () => {
    const db = freshDatabase(TEST_STORE, EMAIL_ON);
    const store = await db.open();
    try {
      await store.setNotificationSettings(TA, ORG, [''], ['eve'], { email: 'ALL' }, T0);
      await store.setNotificationSettings(TA, ORG, [''], ['fay'], { email: 'MINE' }, T0);
      await store.addNotification(TA, ORG, notification('n1', { recipients: ['bob', 'cy'] }));
      await store.addNotification(
        TA,
        ORG,
        notification('n2', { recipients: ['bob'], source: 'comment', headlineTemplate: HEADLINES.mention }),
      );
      await store.addNotification(
        TA,
        ORG,
        notification('n3', { recipients: ['dee'], source: 'comment', headlineTemplate: HEADLINES.member }),
      );
      await store.addNotification(TA, ORG, notification('n4', { recipients: ['bob'], notifyAll: true }));
      const rows = await db.query(
        `SELECT notification_id, user_id, concerns, mention, next_at - created_at AS wait, status FROM email_outbox
         ORDER BY notification_id, user_id`,
      );
      eq(
        rows.map((r) => `${r.notification_id} ${r.user_id} c${r.concerns} m${r.mention} ${Number(r.wait)} ${r.status}`),
        [
          'n1 bob c1 m0 60000 pending',
          'n1 cy c1 m0 60000 pending',
          'n2 bob c1 m1 0 pending',
          'n3 dee c0 m0 60000 pending',
          'n4 bob c1 m0 60000 pending',
          'n4 eve c0 m0 60000 pending',
        ],
        'rows as drafted',
      );
      // The mention is due now: bob's digest takes all four of his rows; a second claimer gets nothing of bob's.
      const now = T0 + 10;
      const first = await store.claimEmails('one', now, now + 1000, 10, 100);
      eq(
        first.map((d) => [d.userId, d.rows.map((r) => r.notificationId)]),
        [['bob', ['n1', 'n2', 'n4']]],
        'bob claimed',
      );
      eq(first[0]!.settings.get(''), undefined, 'bob set nothing');
      eq((await store.claimEmails('two', now, now + 1000, 10, 100)).length, 0, 'held by one');
      eq(
        await store.finishEmails(
          'two',
          first[0]!.rows.map((r) => r.id),
          { status: 'sent', at: now, error: null },
        ),
        0,
        'not two',
      );
      // The lease ends: taken over.
      const again = await store.claimEmails('two', now + 1000, now + 2000, 10, 100);
      eq(
        again.map((d) => d.userId),
        ['bob'],
        'after the lease',
      );
      eq(
        await store.finishEmails(
          'two',
          again[0]!.rows.map((r) => r.id),
          { status: 'sent', at: now + 1000, error: null },
        ),
        3,
        'finished by two',
      );
      eq(await store.emailQueueStats(), { queued: 3, oldestCreatedAt: T0 }, 'cy, dee, eve wait');
      // After the window, everyone else; a retry is due at its time.
      const rest = await store.claimEmails('one', T0 + 60_000, T0 + 61_000, 10, 100);
      eq(rest.map((d) => d.userId).sort(), ['cy', 'dee', 'eve'], 'the others after the window');
      const eve = rest.find((d) => d.userId === 'eve')!;
      eq(eve.settings.get(''), 'ALL', "eve's setting");
      await store.finishEmails(
        'one',
        eve.rows.map((r) => r.id),
        { status: 'retrying', at: T0 + 70_000, error: 'SMTP 451' },
      );
      for (const d of rest.filter((x) => x.userId !== 'eve'))
        await store.finishEmails(
          'one',
          d.rows.map((r) => r.id),
          { status: 'skipped', at: T0 + 60_000, error: 'setting' },
        );
      eq((await store.claimEmails('two', T0 + 65_000, T0 + 66_000, 10, 100)).length, 0, 'not before the retry');
      eq(
        (await store.claimEmails('two', T0 + 70_000, T0 + 71_000, 10, 100)).map((d) => [d.userId, d.rows[0]!.attempts]),
        [['eve', 1]],
        'at the retry',
      );
      // Unsubscribe: NONE for the organization and its documents; a user without a profile is refused.
      eq(await store.unsubscribeEmail(TA, ORG, 'eve', T0), false, 'no profile');
    } finally {
      await store.close();
      await db.drop();
    }
  });

  test("an erasure deletes the user's mails, waiting or sent, and nobody else's", async () => {
    const db = freshDatabase(TEST_STORE, EMAIL_ON);
    const store = await db.open();
    try {
      await store.addNotification(TA, ORG, notification('n1', { recipients: ['bob', 'cy'] }));
      await store.addNotification(TA, ORG, notification('n2', { recipients: ['bob'] }));
      await db.exec(`UPDATE email_outbox SET status = 'sent', finished_at = ${T0} WHERE notification_id = 'n2'`);
      await store.eraseUserData(TA, null, ['bob'], 100, { jobId: 'job-1', now: () => T0 });
      const rows = await db.query('SELECT notification_id, user_id, status FROM email_outbox ORDER BY notification_id, user_id');
      eq(
        rows.map((r) => `${r.notification_id} ${r.user_id} ${r.status}`),
        ['n1 cy pending'],
        "only cy's mail is left",
      );
    } finally {
      await store.close();
      await db.drop();
    }
  });

  storeTest('email off: nothing is drafted', async (store, db) => {
    await store.addNotification(TA, ORG, notification('n1', { recipients: ['bob'] }));
    eq(Number((await db.query('SELECT count(*) AS n FROM email_outbox'))[0]!.n), 0, 'no rows');
  });
});
