// The replay's plans for the activity pages (activities/add, get, update, delete) and the tenant's activity
// settings (workspace/activityconfig/get and update): docs/api.md, "Activities". Each example has a tenant of
// its own, which keeps no activities until it enables them (the add page's Note), so the activity pages'
// setups enable them first, as the update page's own example does.
import type { Context, Plan } from '../../helpers/vendor-plan.js';

const ORG = 'org-123';
const DOC = 'doc-456';
const ENABLED = 'activity logs enabled first (workspace/activityconfig/update), as the add page says they must be';

async function enable(ctx: Context): Promise<void> {
  await ctx.call('/v2/workspace/activityconfig/update', { activityServiceConfig: { isEnabled: true, immutable: false } });
}

/** An activity as the get page shows one: every member its answer documents. */
const activity = (id: string, targetEntityId: string) => ({
  id,
  featureType: 'comment',
  actionType: 'comment.add',
  actionUser: { userId: 'user-1', email: 'user@example.com', name: 'User Name' },
  targetEntityId,
  displayMessageTemplate: '{{user}} added a comment',
  displayMessageTemplateData: { user: { userId: 'user-1', name: 'User Name' } },
});

const add = (ctx: Context, activities: Record<string, unknown>[], documentId = DOC) =>
  ctx.call('/v2/activities/add', { organizationId: ORG, documentId, activities });

export const ACTIVITY_PLANS: Record<string, Plan> = {
  '/v2/activities/add': {
    setup: enable,
    expect: () => ({ exact: true, note: ENABLED }),
  },
  '/v2/activities/get': {
    // activity-001 and -002 on the page's document, and 45 more of its annotation-789: the fourth example's
    // token is a real first page's (of 20), and a page of 20 after it leaves more.
    setup: async (ctx, ex) => {
      await enable(ctx);
      await add(ctx, [activity('activity-001', 'annotation-789'), activity('activity-002', 'annotation-1')]);
      const data = ex.body.data as Record<string, unknown>;
      if (typeof data.pageToken !== 'string') return;
      await add(
        ctx,
        Array.from({ length: 45 }, (_, n) => activity(`a-${n}`, 'annotation-789')),
      );
      const first = await ctx.call('/v2/activities/get', { ...data, pageToken: undefined });
      ctx.replace(
        data.pageToken,
        first.pageToken,
        `the page's "${data.pageToken}" cannot be real: the token of a first page is sent`,
      );
    },
    // The first three ask for everything there is: a last page, without the token the page shows beside data.
    expect: (ex) =>
      typeof (ex.body.data as Record<string, unknown>).pageToken === 'string'
        ? { note: ENABLED }
        : { lastPage: true, note: ENABLED },
  },
  '/v2/activities/update': {
    setup: async (ctx) => {
      await enable(ctx);
      await add(ctx, [activity('activity-001', 'annotation-789'), activity('activity-002', 'annotation-1')]);
    },
    expect: () => ({ note: ENABLED }),
  },
  '/v2/activities/delete': {
    setup: async (ctx) => {
      await enable(ctx);
      await add(ctx, [activity('activity-001', 'annotation-789'), activity('activity-002', 'annotation-1')]);
    },
    expect: () => ({ note: ENABLED }),
  },
  '/v2/workspace/activityconfig/get': {
    // The page's answer shows settings a workspace has set (never set, they read {"isEnabled": false}, as its Info says).
    setup: async (ctx) => {
      await ctx.call('/v2/workspace/activityconfig/update', {
        activityServiceConfig: { isEnabled: false, immutable: false, triggers: { comment: { added: true } } },
      });
    },
    expect: () => ({ exact: true, note: "the settings the page's answer shows are set first" }),
  },
  '/v2/workspace/activityconfig/update': {
    // enabledTime is the time of the first enable (the page prints one of its own); the seeded triggers come too.
    expect: () => ({ note: 'enabledTime is the time of the call; the first enable seeds the comment triggers (docs/api.md)' }),
  },
};
