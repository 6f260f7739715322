// The replay's plans of the workspace service settings (emailconfig, notificationconfig,
// permissionproviderconfig) and of presence: each example is answered as its page documents.
import { lookup } from 'node:dns/promises';
import type { Plan } from '../../helpers/vendor-plan.js';

/** The get pages print the defaults of a workspace that never set them: a fresh tenant answers them exactly. */
const DEFAULTS: Plan = { expect: () => ({ exact: true }) };

/** The presence pages' document and users: user-1 to user-3 on doc-456 of org-123, present before the example. */
const PRESENT: Plan = {
  setup: async (ctx) => {
    const users = ['user-1', 'user-2', 'user-3'].map((userId) => ({ userId, name: 'User Name', email: 'user@example.com' }));
    await ctx.call('/v2/presence/add', { organizationId: 'org-123', documentId: 'doc-456', users });
  },
  expect: () => ({ exact: true }),
};

const PROVIDER_URL = 'https://example.com/permissions';

export const SETTINGS_PRESENCE_PLANS: Record<string, Plan> = {
  '/v2/workspace/emailconfig/get': DEFAULTS,
  // The answer shows what enabling seeds besides what was sent (the triggers, the template ids): members the page
  // does not show, as its note on seeding says.
  '/v2/workspace/emailconfig/update': {},
  '/v2/workspace/notificationconfig/get': DEFAULTS,
  // Likewise: the seeded triggers and the default batching beside the delay sent.
  '/v2/workspace/notificationconfig/update': {},
  '/v2/workspace/permissionproviderconfig/get': DEFAULTS,
  '/v2/workspace/permissionproviderconfig/update': {
    // The URL's host is resolved by the SSRF guard: where the replay runs without DNS, a public address stands for it.
    setup: async (ctx) => {
      try {
        await lookup('example.com');
      } catch {
        ctx.replace(
          PROVIDER_URL,
          'https://93.184.215.14/permissions',
          'example.com does not resolve here (no DNS): a public address literal stands for it, as the SSRF guard resolves the host',
        );
      }
    },
  },
  '/v2/presence/add': { expect: () => ({ exact: true }) },
  '/v2/presence/update': PRESENT,
  '/v2/presence/delete': PRESENT,
};
