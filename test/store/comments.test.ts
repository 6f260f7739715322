import { describe } from 'node:test';
import type { CommentQuery } from '../../src/domain/threads.js';
import { TEST_STORE } from '../helpers/test-database.js';
import {
  T0,
  TA,
  ORG,
  DOC,
  MAX_ID,
  show,
  eq,
  sorted,
  newComment,
  draft,
  annotation,
  commentQuery,
  commentIdsOf,
  added,
  storeTest,
} from '../helpers/store-fixtures.js';

describe(`${TEST_STORE} store: comment annotations`, () => {
  storeTest('addAnnotations stores every annotation with its comments in order, stamped with now', async (store) => {
    const taken = await store.addAnnotations(
      TA,
      ORG,
      DOC,
      [
        annotation('ann-1', [
          newComment(3, 'third id first', 'u1', 'Ann', 'ann@example.com'),
          newComment(1, 'one', 'u2'),
          newComment(2, 'two é 😀 <&>', 'u1', '', ''),
        ]),
        annotation('ann-2', [newComment(1, 'other thread')]),
      ],
      T0,
    );
    eq(taken instanceof Set, true, `addAnnotations returns a Set, got ${show(taken)}`);
    eq(sorted(taken), [], 'taken ids');
    const comments = (await store.getComments(TA, commentQuery('ann-1'))).map(({ credentialsVersion, ...c }) => c);
    eq(
      comments,
      [
        {
          commentId: 3,
          html: '<p>third id first</p>',
          text: 'third id first',
          from: { userId: 'u1', name: 'Ann', email: 'ann@example.com' },
          profileVersion: 0,
          status: 'added',
          type: 'text',
          createdAt: T0,
          lastUpdated: T0,
          taggedUserContacts: null,
          context: null,
          attachments: null,
          agent: null,
        },
        {
          commentId: 1,
          html: '<p>one</p>',
          text: 'one',
          from: { userId: 'u2', name: null, email: null },
          profileVersion: 0,
          status: 'added',
          type: 'text',
          createdAt: T0,
          lastUpdated: T0,
          taggedUserContacts: null,
          context: null,
          attachments: null,
          agent: null,
        },
        {
          commentId: 2,
          html: '<p>two é 😀 <&></p>',
          text: 'two é 😀 <&>',
          from: { userId: 'u1', name: '', email: '' },
          profileVersion: 0,
          status: 'added',
          type: 'text',
          createdAt: T0,
          lastUpdated: T0,
          taggedUserContacts: null,
          context: null,
          attachments: null,
          agent: null,
        },
      ],
      'comments of ann-1',
    );
    eq(commentIdsOf(await store.getComments(TA, commentQuery('ann-2'))), [1], 'comment ids of ann-2');
  });

  storeTest('addAnnotations returns the taken ids, skips those and adds the rest', async (store) => {
    await store.addAnnotations(TA, ORG, DOC, [annotation('ann-1', [newComment(1, 'original')])], T0);
    const taken = await store.addAnnotations(
      TA,
      ORG,
      DOC,
      [
        annotation('ann-0', [newComment(1, 'new zero')]),
        annotation('ann-1', [newComment(1, 'replacement'), newComment(2, 'extra')]),
        annotation('ann-2', [newComment(5, 'new two')]),
      ],
      T0 + 1,
    );
    eq(sorted(taken), ['ann-1'], 'taken ids');
    const ann1 = await store.getComments(TA, commentQuery('ann-1'));
    eq(
      ann1.map((c) => [c.commentId, c.text, c.createdAt]),
      [[1, 'original', T0]],
      'ann-1 is untouched',
    );
    eq(
      (await store.getComments(TA, commentQuery('ann-0'))).map((c) => c.text),
      ['new zero'],
      'ann-0',
    );
    eq(
      (await store.getComments(TA, commentQuery('ann-2'))).map((c) => [c.commentId, c.text, c.createdAt]),
      [[5, 'new two', T0 + 1]],
      'ann-2',
    );
  });

  storeTest('annotationIds are per document and per organization', async (store) => {
    await store.addAnnotations(TA, ORG, DOC, [annotation('ann', [newComment(1, 'doc-1')])], T0);
    eq(
      sorted(await store.addAnnotations(TA, ORG, 'doc-2', [annotation('ann', [newComment(1, 'doc-2')])], T0)),
      [],
      'taken in doc-2',
    );
    eq(
      sorted(await store.addAnnotations(TA, 'org-2', DOC, [annotation('ann', [newComment(1, 'org-2')])], T0)),
      [],
      'taken in org-2',
    );
    eq(
      (await store.getComments(TA, commentQuery('ann'))).map((c) => c.text),
      ['doc-1'],
      'thread in org-1/doc-1',
    );
    eq(
      (await store.getComments(TA, commentQuery('ann', { documentId: 'doc-2' }))).map((c) => c.text),
      ['doc-2'],
      'thread in doc-2',
    );
    eq(
      (await store.getComments(TA, commentQuery('ann', { organizationId: 'org-2' }))).map((c) => c.text),
      ['org-2'],
      'thread in org-2',
    );
    eq(added(await store.addComments(TA, ORG, 'doc-2', 'ann', [draft('more')], T0), 'doc-2'), [2], 'ids in doc-2');
    eq(commentIdsOf(await store.getComments(TA, commentQuery('ann'))), [1], 'org-1/doc-1 is untouched');
  });

  storeTest('addComments on an unknown annotation is annotation_not_found and adds nothing', async (store) => {
    await store.addAnnotations(TA, ORG, 'doc-2', [annotation('ann', [newComment(1, 'elsewhere')])], T0);
    eq(await store.addComments(TA, ORG, DOC, 'ann', [draft('x')], T0), { kind: 'annotation_not_found' }, 'addComments in doc-1');
    eq(
      await store.addComments(TA, 'org-2', 'doc-2', 'ann', [draft('x')], T0),
      { kind: 'annotation_not_found' },
      'addComments in org-2',
    );
    eq(
      await store.addComments(TA, ORG, 'doc-2', 'nope', [draft('x', 7)], T0),
      { kind: 'annotation_not_found' },
      'addComments of an unknown id',
    );
    eq(await store.getComments(TA, commentQuery('ann')), [], 'doc-1 has no such thread');
    eq(commentIdsOf(await store.getComments(TA, commentQuery('ann', { documentId: 'doc-2' }))), [1], 'doc-2 thread is untouched');
  });

  storeTest(
    'addComments with a caller-chosen id that is taken is comment_exists with that id, and nothing is added',
    async (store) => {
      await store.addAnnotations(TA, ORG, DOC, [annotation('ann', [newComment(1, 'one'), newComment(2, 'two')])], T0);
      const result = await store.addComments(
        TA,
        ORG,
        DOC,
        'ann',
        [draft('gen'), draft('free', 10), draft('taken', 2), draft('taken too', 1)],
        T0 + 1,
      );
      eq(result, { kind: 'comment_exists', commentId: 2 }, 'addComments result');
      eq(
        (await store.getComments(TA, commentQuery('ann'))).map((c) => [c.commentId, c.text]),
        [
          [1, 'one'],
          [2, 'two'],
        ],
        'thread after the refused batch',
      );
      eq(added(await store.addComments(TA, ORG, DOC, 'ann', [draft('free', 10)], T0 + 2), 'free id'), [10], 'ids');
      eq(
        await store.addComments(TA, ORG, DOC, 'ann', [draft('again', 10)], T0 + 3),
        { kind: 'comment_exists', commentId: 10 },
        'the same id again',
      );
      eq(commentIdsOf(await store.getComments(TA, commentQuery('ann'))), [1, 2, 10], 'thread');
    },
  );

  storeTest('addComments generates ids one more than the largest in the thread, counting ids the batch placed', async (store) => {
    await store.addAnnotations(
      TA,
      ORG,
      DOC,
      [annotation('ann', [newComment(1, 'a'), newComment(7, 'b'), newComment(3, 'c')])],
      T0,
    );
    eq(
      added(await store.addComments(TA, ORG, DOC, 'ann', [draft('g1'), draft('chosen', 20), draft('g2')], T0 + 1), 'batch'),
      [8, 20, 21],
      'ids of the batch',
    );
    eq(
      added(await store.addComments(TA, ORG, DOC, 'ann', [draft('chosen low', 4), draft('g3')], T0 + 2), 'second batch'),
      [4, 22],
      'ids of the second batch',
    );
    eq(commentIdsOf(await store.getComments(TA, commentQuery('ann'))), [1, 7, 3, 8, 20, 21, 4, 22], 'thread in creation order');
  });

  storeTest('addComments near 2147483647: the last id is given, then ids_exhausted and nothing is added', async (store) => {
    await store.addAnnotations(TA, ORG, DOC, [annotation('ann', [newComment(MAX_ID - 1, 'almost')])], T0);
    eq(added(await store.addComments(TA, ORG, DOC, 'ann', [draft('last')], T0 + 1), 'last'), [MAX_ID], 'ids');
    eq(await store.addComments(TA, ORG, DOC, 'ann', [draft('past')], T0 + 2), { kind: 'ids_exhausted' }, 'one more');
    eq(
      await store.addComments(TA, ORG, DOC, 'ann', [draft('chosen', 5), draft('past')], T0 + 3),
      { kind: 'ids_exhausted' },
      'a batch with a free chosen id and a generated one',
    );
    eq(
      added(await store.addComments(TA, ORG, DOC, 'ann', [draft('chosen', 5)], T0 + 4), 'chosen'),
      [5],
      'a chosen id still fits',
    );
    eq(commentIdsOf(await store.getComments(TA, commentQuery('ann'))), [MAX_ID - 1, MAX_ID, 5], 'thread');
    await store.addAnnotations(TA, ORG, DOC, [annotation('ann-2', [newComment(1, 'a')])], T0);
    eq(
      await store.addComments(TA, ORG, DOC, 'ann-2', [draft('top', MAX_ID), draft('past')], T0 + 5),
      { kind: 'ids_exhausted' },
      'generated after a chosen 2147483647 in the same batch',
    );
    eq(commentIdsOf(await store.getComments(TA, commentQuery('ann-2'))), [1], 'ann-2 after the refused batch');
  });

  storeTest('comments keep creation order, not id order, and each batch is stamped with its own now', async (store) => {
    await store.addAnnotations(TA, ORG, DOC, [annotation('ann', [newComment(100, 'a')])], T0);
    added(await store.addComments(TA, ORG, DOC, 'ann', [draft('b', 5)], T0 + 10), 'b');
    added(await store.addComments(TA, ORG, DOC, 'ann', [draft('c'), draft('d', 50)], T0 + 20), 'c, d');
    added(await store.addComments(TA, ORG, DOC, 'ann', [draft('e', 2)], T0 + 30), 'e');
    const comments = await store.getComments(TA, commentQuery('ann'));
    eq(
      comments.map((c) => [c.commentId, c.text, c.createdAt, c.lastUpdated]),
      [
        [100, 'a', T0, T0],
        [5, 'b', T0 + 10, T0 + 10],
        [101, 'c', T0 + 20, T0 + 20],
        [50, 'd', T0 + 20, T0 + 20],
        [2, 'e', T0 + 30, T0 + 30],
      ],
      'thread',
    );
    eq(
      comments.map((c) => [c.status, c.type, c.from.name]),
      [
        ['added', 'text', null],
        ['added', 'text', 'Name u1'],
        ['added', 'text', 'Name u1'],
        ['added', 'text', 'Name u1'],
        ['added', 'text', 'Name u1'],
      ],
      'status, type and writer name',
    );
  });

  storeTest('createdAt never goes backwards in creation order, even when a later batch read an earlier time', async (store) => {
    await store.addAnnotations(TA, ORG, DOC, [annotation('ann', [newComment(1, 'a')])], T0 + 50);
    // The second writer read its clock first but took the thread lock second (or runs on an instance whose clock is behind).
    added(await store.addComments(TA, ORG, DOC, 'ann', [draft('b')], T0 + 20), 'b');
    added(await store.addComments(TA, ORG, DOC, 'ann', [draft('c')], T0 + 80), 'c');
    const comments = await store.getComments(TA, commentQuery('ann'));
    eq(
      comments.map((c) => [c.text, c.createdAt, c.lastUpdated]),
      [
        ['a', T0 + 50, T0 + 50],
        ['b', T0 + 50, T0 + 50],
        ['c', T0 + 80, T0 + 80],
      ],
      'thread',
    );
  });

  storeTest('getComments filters by userIds and commentIds (null is no filter), in creation order', async (store) => {
    await store.addAnnotations(
      TA,
      ORG,
      DOC,
      [
        annotation('ann', [
          newComment(5, 'a', 'u1'),
          newComment(1, 'b', 'u2'),
          newComment(9, 'c', 'u3'),
          newComment(3, 'd', 'u2'),
          newComment(7, 'e', 'u1'),
        ]),
      ],
      T0,
    );
    const get = async (over: Partial<CommentQuery>) => commentIdsOf(await store.getComments(TA, commentQuery('ann', over)));
    eq(await get({}), [5, 1, 9, 3, 7], 'no filter');
    eq(await get({ userIds: ['u2', 'u3'] }), [1, 9, 3], 'userIds u2, u3');
    eq(await get({ userIds: ['nobody'] }), [], 'userIds nobody');
    eq(await get({ commentIds: [7, 1, 99, 5] }), [5, 1, 7], 'commentIds 7, 1, 99, 5');
    eq(await get({ commentIds: [99] }), [], 'commentIds 99');
    eq(await get({ userIds: ['u1', 'u2'], commentIds: [9, 3, 7] }), [3, 7], 'userIds u1, u2 and commentIds 9, 3, 7');
    eq(await get({ annotationId: 'nope' }), [], 'an unknown annotation');
    eq(await get({ documentId: 'doc-other' }), [], 'another document');
    eq(await get({ organizationId: 'org-other' }), [], 'another organization');
  });
});

// ---------------------------------------------------------------------------------------------
