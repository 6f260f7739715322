// The replay's plans for workspace keys and tokens (docs/api.md, "Workspace keys and tokens"): the API-key pages
// sent with the workspace's credentials (the replay's own, under x-velt-workspace-id and
// x-velt-workspace-auth-token), each naming the example's tenant where the page prints velt_api_key_1; and a
// key's own pages (domains/get, apikeyconfig/get|update) sent with its tenant's credentials.
import type { Context, Plan } from '../../helpers/vendor-plan.js';

/** The page's key stands for the example's own tenant (its API key is only known at run time). */
const theExamplesKey = (ctx: Context, apiKey: string) =>
  ctx.replace('velt_api_key_1', apiKey, "velt_api_key_1 is the example's own API key");

/** A workspace page whose example names a key: the example's own. */
const workspacePage = (note?: string): Plan => ({
  credentials: 'workspace',
  setup: async (ctx) => theExamplesKey(ctx, ctx.apiKey),
  ...(note ? { expect: () => ({ note }) } : {}),
});

export const WORKSPACE_KEYS: Record<string, Plan> = {
  '/v2/workspace/apikey/create': {
    credentials: 'workspace',
    expect: () => ({ note: 'createAuthToken: the new token is answered beside apiKey (authToken), once' }),
  },
  '/v2/workspace/apikey/update': workspacePage(),
  '/v2/workspace/apikeys/get': {
    credentials: 'workspace',
    expect: () => ({ lastPage: true, note: "every key of the run's installation; nextPageToken only when more remain" }),
  },
  '/v2/workspace/authtokens/get': workspacePage('token: its first characters (tokens are kept hashed)'),
  '/v2/workspace/authtoken/reset': workspacePage(),
  '/v2/workspace/domains/get': {
    setup: async (ctx) => {
      await ctx.call('/v2/workspace/domains/add', { domains: ['localhost', '127.0.0.1', 'example.com'] });
    },
  },
  '/v2/workspace/apikeyconfig/get': {
    setup: async (ctx) => {
      await ctx.call('/v2/workspace/apikeyconfig/update', {
        aiModelApiKey: [{ provider: 'openai', customerApiKey: 'sk-0123456789XyZ' }],
      });
    },
    expect: () => ({
      unshown: ['data.ownerEmail'],
      note: "the replay's key is made by the CLI, which takes no owner email (ownerEmail absent)",
    }),
  },
  '/v2/workspace/apikeyconfig/update': {},
};
