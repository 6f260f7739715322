// The admin console at /admin (docs/operations.md, "Admin console"): registered only when MARGINALIA_ADMIN_TOKEN is
// set, so without it every /admin path is the API's plain 404. Server-rendered pages, one stylesheet, no script.
// Every page but the login needs a session (session.ts); every form post also needs the session's CSRF token and,
// when the browser sends one, an Origin of this host. The pages act through the services, as the API does.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../clock.js';
import { ApiError } from '../errors.js';
import type { Metrics } from '../http/metrics.js';
import type { App } from '../http/types.js';
import type { Services } from '../services/context.js';
import { html } from './html.js';
import { type PageContext, page } from './layout.js';
import { registerContentPages } from './pages/content.js';
import { registerHealthPage } from './pages/health.js';
import { registerTenantPages } from './pages/tenants.js';
import { registerWebhookPages } from './pages/webhooks.js';
import { ADMIN_CSS } from './style.js';
import { ADMIN_PREFIX, type AdminSession, AdminSessions, sessionCookie, sessionCookieOf } from './session.js';

export interface AdminOptions {
  token: string;
  sessionHours: number;
  services: Services;
  metrics: Metrics;
  clock: Clock;
}

/** What every page of a logged-in session is given. */
export interface AdminDeps {
  services: Services;
  metrics: Metrics;
  clock: Clock;
}

declare module 'fastify' {
  interface FastifyRequest {
    adminSession?: AdminSession;
    adminCsrf?: string;
  }
}

/** The headers of every console answer: nothing loads from elsewhere, no framing, nothing kept by caches. */
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  // Not no-referrer: under it a browser sends its form posts with Origin: null, which the Origin check must refuse.
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
};

/** Most bytes a console form posts: its fields are names and ids. */
const FORM_BODY_LIMIT = 64 * 1024;

/** The page's context for a logged-in request: its CSRF token, for the forms. */
export const contextOf = (request: FastifyRequest, extra: Omit<PageContext, 'csrf'> = {}): PageContext => ({
  ...extra,
  ...(request.adminCsrf ? { csrf: request.adminCsrf } : {}),
});

export const sendPage = (reply: FastifyReply, status: number, text: string) =>
  reply.code(status).headers(PAGE_HEADERS).send(text);

/** What a failed action says on the page: an ApiError's own message; anything else is logged and said in general. */
export function failureOf(request: FastifyRequest, err: unknown): { status: number; message: string } {
  if (err instanceof ApiError) return { status: err.httpStatus, message: err.message };
  request.log.error({ err }, 'admin console: an action failed');
  return { status: 500, message: 'The action failed on the server; its log says why.' };
}

/** A form's field as text ('' when absent): the bodies are form-encoded objects of strings. */
export function field(request: FastifyRequest, name: string): string {
  const body = request.body as Record<string, unknown> | undefined;
  const value = body?.[name];
  return typeof value === 'string' ? value.trim() : '';
}

/** Whether the browser reached us over TLS: directly, or through a proxy that says so (x-forwarded-proto). */
function overTls(request: FastifyRequest): boolean {
  const forwarded = request.headers['x-forwarded-proto'];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim().toLowerCase();
  return request.protocol === 'https' || first === 'https';
}

/** A browser's Origin, when it sent one, names this host (behind a proxy: the Host it forwarded). */
function sameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}

const loginPage = (error: string | null = null) =>
  page(
    'Log in',
    { error },
    html`<form method="post" action="/admin/login" class="row">
<label>Admin token <input type="password" name="token" autocomplete="current-password" required autofocus></label>
<button type="submit">Log in</button>
</form>
<p class="muted">The token is MARGINALIA_ADMIN_TOKEN of this installation (docs/operations.md, "Admin console").</p>`,
  );

const OPEN_PATHS = new Set([`${ADMIN_PREFIX}/login`, `${ADMIN_PREFIX}/admin.css`]);

export async function registerAdmin(app: App, options: AdminOptions): Promise<void> {
  const sessions = new AdminSessions(options.token, options.sessionHours);
  const deps: AdminDeps = { services: options.services, metrics: options.metrics, clock: options.clock };
  await app.register(async (scope: App) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    scope.addHook('onRequest', async (request, reply) => {
      // The route's pattern, not the URL: no spelling of a path can reach a page as if it were the login.
      const path = request.routeOptions.url ?? '';
      if (OPEN_PATHS.has(path)) return;
      const session = await sessions.read(sessionCookieOf(request.headers.cookie), options.clock());
      if (!session) return sendPage(reply, 401, loginPage(path === ADMIN_PREFIX ? null : 'Log in first.'));
      request.adminSession = session;
      request.adminCsrf = sessions.csrfOf(session);
    });
    // Form posts: after the body is read, before any handler acts.
    scope.addHook('preHandler', async (request, reply) => {
      if (request.method !== 'POST') return;
      if (!sameOrigin(request)) return sendPage(reply, 403, page('Refused', {}, html`<p>A form from another site.</p>`));
      const session = request.adminSession;
      if (session && !sessions.isCsrf(session, (request.body as Record<string, unknown> | undefined)?.csrf))
        return sendPage(
          reply,
          403,
          page('Refused', contextOf(request), html`<p>The form's CSRF token is missing or stale; reload the page.</p>`),
        );
    });
    const hidden = { schema: { hide: true } };
    scope.get(`${ADMIN_PREFIX}/admin.css`, hidden, (_request, reply) =>
      reply
        .headers({ ...PAGE_HEADERS, 'content-type': 'text/css; charset=utf-8', 'cache-control': 'max-age=3600' })
        .send(ADMIN_CSS),
    );
    scope.post(`${ADMIN_PREFIX}/login`, hidden, async (request, reply) => {
      if (!sessions.isToken(field(request, 'token'))) return sendPage(reply, 401, loginPage('That is not the admin token.'));
      const { value, maxAge } = await sessions.open(options.clock());
      return reply
        .code(303)
        .header('set-cookie', sessionCookie(value, maxAge, overTls(request)))
        .header('location', ADMIN_PREFIX)
        .send();
    });
    scope.post(`${ADMIN_PREFIX}/logout`, hidden, async (request, reply) =>
      reply
        .code(303)
        .header('set-cookie', sessionCookie('', 0, overTls(request)))
        .header('location', ADMIN_PREFIX)
        .send(),
    );
    registerHealthPage(scope, deps);
    registerTenantPages(scope, deps);
    registerContentPages(scope, deps);
    registerWebhookPages(scope, deps);
  });
}
