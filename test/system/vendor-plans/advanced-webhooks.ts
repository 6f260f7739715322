// The replay plans of the advanced webhook pages (docs/api.md, "Advanced webhooks"): endpoints create, get,
// update, delete and secret/get, and the two configuration pages. The endpoint pages answer once advanced
// webhooks are enabled (as the pages say), so each enables them first. The pages' example URLs are on
// example.com, which the SSRF guard resolves: the replay's machine may have no DNS, so its address is sent.
import type { Context, Plan } from '../../helpers/vendor-plan.js';

const PAGE_ENDPOINT = 'ep_2vK9mPzGqLxYwBnRtCdHsJfAeUo';
/** example.com's public address: the guard takes it without a lookup. */
const EXAMPLE_COM = 'https://93.184.215.14';
const URL_NOTE = "the page's example.com URL is sent as example.com's address (the SSRF guard needs no DNS for it)";

const enable = (ctx: Context) => ctx.call('/v2/workspace/advancedwebhookconfig/update', { isEnabled: true });

/** Advanced webhooks enabled and the page's endpoint made; its placeholder id replaced by the real one. */
async function pageEndpoint(ctx: Context): Promise<void> {
  await enable(ctx);
  const made = await ctx.call('/v2/workspace/advancedwebhook/endpoints/create', {
    url: `${EXAMPLE_COM}/webhooks/velt`,
    description: 'Primary endpoint',
    filterTypes: ['comment.add', 'comment.update'],
  });
  ctx.replace(PAGE_ENDPOINT, made.data.id, "the page's endpoint id cannot be real: the one made first is sent (ids are wh_...)");
}

const compared = { note: 'ids, secrets and times are made by the server: compared by type' };

export const ADVANCED_WEBHOOK_PLANS: Record<string, Plan> = {
  '/v2/workspace/advancedwebhook/endpoints/create': {
    setup: async (ctx) => {
      await enable(ctx);
      ctx.replace('https://example.com/webhooks/velt', `${EXAMPLE_COM}/webhooks/velt`, URL_NOTE);
    },
    expect: () => compared,
  },
  '/v2/workspace/advancedwebhook/endpoints/get': { setup: pageEndpoint, expect: () => compared },
  '/v2/workspace/advancedwebhook/endpoints/update': { setup: pageEndpoint, expect: () => compared },
  '/v2/workspace/advancedwebhook/endpoints/delete': { setup: pageEndpoint, expect: () => compared },
  '/v2/workspace/advancedwebhook/endpoints/secret/get': { setup: pageEndpoint, expect: () => compared },
  '/v2/workspace/advancedwebhookconfig/get': { setup: async (ctx) => void (await enable(ctx)), expect: () => ({ exact: true }) },
  '/v2/workspace/advancedwebhookconfig/update': { expect: () => ({ exact: true }) },
  '/v2/workspace/webhookconfig/get': { expect: () => ({ exact: true }) },
  '/v2/workspace/webhookconfig/update': {
    setup: async (ctx) => {
      for (const path of ['raw', 'processed'])
        ctx.replace(`https://example.com/webhooks/${path}`, `${EXAMPLE_COM}/webhooks/${path}`, URL_NOTE);
    },
    expect: () => ({ note: 'the triggers seeded on the first enable are shown beside the members the page prints' }),
  },
};
