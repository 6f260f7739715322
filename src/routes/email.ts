// GET /email/unsubscribe?token=... (docs/api.md, "GET /email/unsubscribe"): the link of every mail, followed without
// logging in. A good token sets the user's email setting in the organization to NONE (its own and every document's)
// and answers a small page; POST does the same for mail programs' one-click unsubscribe (RFC 8058, the mail's
// List-Unsubscribe-Post header). A changed, cut or expired token is refused with a page that says so. No
// credentials, as the other pages; hidden from /openapi.json: a page, not API.
import type { Clock } from '../clock.js';
import { loadTemplates, type Template } from '../email/templates.js';
import { readUnsubscribe, verifyUnsubscribe } from '../email/unsubscribe.js';
import type { App } from '../http/types.js';
import type { Store } from '../store/store.js';

export const UNSUBSCRIBE_PATH = '/email/unsubscribe';

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
};

const REFUSALS = {
  malformed: [400, 'This link is not valid', 'The link is incomplete or was changed. Open it again from the mail, as it is.'],
  signature: [400, 'This link is not valid', 'The link is incomplete or was changed. Open it again from the mail, as it is.'],
  expired: [
    410,
    'This link has expired',
    'Unsubscribe links work for 90 days. Use the link of a newer mail, or change your notification settings in the application.',
  ],
  unknown: [404, 'Nothing to unsubscribe', 'This user is not known in that organization any more.'],
} as const;

export function registerEmail(app: App, store: Store, options: { templatesDir: string | null; clock: Clock }): void {
  const page: Template = loadTemplates(options.templatesDir)['unsubscribed.html'];
  const handler = async (
    request: { query: unknown },
    reply: { code(n: number): unknown; headers(h: object): { send(b: string): unknown } },
  ) => {
    const answer = (status: number, title: string, message: string) => {
      reply.code(status);
      return reply.headers(PAGE_HEADERS).send(page.render({ title, message }));
    };
    const refuse = (why: keyof typeof REFUSALS) => {
      const [status, title, message] = REFUSALS[why];
      return answer(status, title, message);
    };
    const token = (request.query as { token?: unknown } | undefined)?.token;
    if (typeof token !== 'string') return refuse('malformed');
    const read = readUnsubscribe(token);
    if (!read) return refuse('malformed');
    const secret = await store.existingEmailSecret(read.claims.tenantId);
    const checked = verifyUnsubscribe(token, () => secret, options.clock());
    if (!checked.ok) return refuse(checked.why);
    const { tenantId, organizationId, userId } = checked.claims;
    if (!(await store.unsubscribeEmail(tenantId, organizationId, userId, options.clock()))) return refuse('unknown');
    return answer(
      200,
      'You are unsubscribed',
      `You will get no more mail about notifications in ${organizationId}. Notifications still reach your inbox in the ` +
        'application, where you can also turn mail on again.',
    );
  };
  const route = { schema: { hide: true } };
  // A scope of their own: a one-click POST carries a form body (List-Unsubscribe=One-Click), which the API's JSON
  // parser would refuse; here any small body is read and ignored (the token is in the address).
  app.register(async (scope: App) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 4096 }, (_request, _body, done) => done(null, null));
    scope.get(UNSUBSCRIBE_PATH, route, handler);
    scope.post(UNSUBSCRIBE_PATH, route, handler);
  });
}
