// Each answer written once (docs/decisions.md): a notification to at most MARGINALIA_INBOX_ANSWER_COPIES
// recipients (1 in the tests: test-database.ts) keeps a copy of its answer in each inbox row; one to
// more keeps it on the notification only, its inbox rows narrow (''). Both read back the same answer,
// and a change of the notification keeps each row as it was: copied rows take the new answer, narrow
// ones stay narrow.
import { describe } from 'node:test';
import { TEST_STORE } from '../helpers/test-database.js';
import { eq, notification, notificationQuery, ORG, readNotifications, storeTest, T0, TA } from '../helpers/store-fixtures.js';

describe(`${TEST_STORE} store: inbox rows keep a copy of the answer only for few recipients`, () => {
  storeTest(
    'a copy for one recipient, none for three; each reads back its answer, and a change keeps the layout',
    async (store, db) => {
      await store.addNotification(TA, ORG, notification('one', { recipients: ['u1'] }));
      await store.addNotification(TA, ORG, notification('three', { recipients: ['u1', 'u2', 'u3'], timestamp: T0 + 1 }));
      const layout = async () =>
        (
          await db.query(`SELECT notification_id, user_id, answer = '' AS narrow FROM inbox
          WHERE tenant_id = '${TA}' ORDER BY notification_id, user_id`)
        ).map((r) => `${r.notification_id} ${r.user_id} ${Number(r.narrow) ? 'narrow' : 'copy'}`);
      eq(await layout(), ['one u1 copy', 'three u1 narrow', 'three u2 narrow', 'three u3 narrow'], 'rows as written');
      const stored = await db.query(
        `SELECT notification_id, answer FROM notifications WHERE tenant_id = '${TA}' ORDER BY notification_id`,
      );
      for (const user of ['u1', 'u2', 'u3']) {
        const read = await readNotifications(store, TA, notificationQuery({ userId: user }));
        const expected = user === 'u1' ? ['three', 'one'] : ['three'];
        eq(
          read.map((n) => n.notificationId),
          expected,
          `${user}'s inbox`,
        );
      }
      const raw = await store.getNotifications(TA, notificationQuery({ userId: 'u2' }));
      eq(
        raw[0]!.answer,
        stored.find((r) => r.notification_id === 'three')!.answer,
        "a narrow row reads its notification's answer",
      );

      // A change of content re-renders the answer: the copy follows, the narrow rows stay narrow.
      const changed = await store.changeNotifications(
        TA,
        ORG,
        ['one', 'three'].map((id) => ({ id, readBy: [], unreadBy: [], content: { bodyMessage: `changed ${id}` } })),
        (row) => ({ answer: `{"changed":"${row.notificationId}"}`, row }),
        5,
      );
      eq([...changed].sort(), ['one', 'three'], 'both changed');
      eq(await layout(), ['one u1 copy', 'three u1 narrow', 'three u2 narrow', 'three u3 narrow'], 'rows after the change');
      const after = await store.getNotifications(TA, notificationQuery({ userId: 'u1' }));
      eq(
        after.map((n) => n.answer),
        ['{"changed":"three"}', '{"changed":"one"}'],
        'both kinds of row read the new answer',
      );
    },
  );
});
