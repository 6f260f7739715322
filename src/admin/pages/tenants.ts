// Tenants and their credentials: create a tenant, issue and revoke auth tokens (rotation is one then the other),
// revoke an API key; the same operator actions as `marginalia keys ...` (services/operator-keys.ts). New secrets are
// shown once, on the answer to the form that made them, and never in a URL.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { invalid } from '../../errors.js';
import type { App } from '../../http/types.js';
import {
  createTenantAsOperator,
  issueAuthToken,
  listTenants,
  revokeApiKey,
  revokeAuthToken,
  rotateTokenSigningKey,
  tenantById,
} from '../../services/operator-keys.js';
import { type AdminDeps, contextOf, failureOf, field, sendPage } from '../console.js';
import { adminPath, html, isoTime, type Markup } from '../html.js';
import { button, csrfField, type PageContext, page } from '../layout.js';

const MAX_NAME_LENGTH = 256;

async function tenantsPage(deps: AdminDeps, ctx: PageContext, shown: Markup | null = null): Promise<string> {
  const tenants = await listTenants(deps.services.store);
  const rows = tenants.map((t) => {
    const at = (...rest: string[]) => adminPath('tenants', t.id, ...rest);
    const state = t.revoked ? 'revoked' : t.disabled ? 'disabled' : 'active';
    const tokens = t.tokens.map(
      (k) =>
        html`<li><code>${k.prefix}…</code> ${isoTime(k.createdAt)}
${k.revoked ? '(revoked)' : button(ctx, at('tokens', 'revoke'), 'Revoke', { prefix: k.prefix }, true)}</li>`,
    );
    const actions = html`${button(ctx, at('tokens'), 'New auth token')}
${button(ctx, at('signing-key'), 'Rotate end-user signing key')} ${button(ctx, at('revoke'), 'Revoke key', {}, true)}`;
    return html`<tr><td><a href="${at('organizations')}">${t.name}</a><br><small class="muted">${t.id}</small></td>
<td><code>${t.apiKey}</code></td><td>${state}</td><td>${isoTime(t.createdAt)}</td><td><ul>${tokens}</ul></td>
<td>${t.revoked ? '' : actions}
<a href="${at('webhooks')}">Webhooks</a> <a href="${at('erasure')}">Erasure jobs</a></td></tr>`;
  });
  return page(
    'Tenants',
    ctx,
    html`${shown ?? ''}
<form method="post" action="/admin/tenants" class="row">${csrfField(ctx)}
<label>Name <input name="name" required maxlength="${MAX_NAME_LENGTH}"></label><button type="submit">Create tenant</button></form>
<table><thead><tr><th>Tenant</th><th>API key</th><th>State</th><th>Created</th><th>Auth tokens</th><th></th></tr></thead>
<tbody>${rows}</tbody></table>`,
  );
}

const ONCE = ' (shown this once: only its hash is kept)';
/** A new credential on the answer that made it; an auth token is never shown again (only its hash is kept). */
const shownOnce = (what: string, value: string, once: boolean) =>
  html`<p class="notice">${what}: <span class="secret" data-secret>${value}</span>${once ? ONCE : ''}.</p>`;
const secret = (what: string, value: string) => shownOnce(what, value, true);

export function registerTenantPages(app: App, deps: AdminDeps): void {
  const { store, clock } = deps.services;
  const hidden = { schema: { hide: true } };
  /** Runs the action and answers the tenants page with what it did, or with why it failed. */
  const acting =
    (act: (request: FastifyRequest<{ Params: { tenantId: string } }>) => Promise<{ notice: string; shown?: Markup }>) =>
    async (request: FastifyRequest<{ Params: { tenantId: string } }>, reply: FastifyReply) => {
      try {
        const { notice, shown } = await act(request);
        return sendPage(reply, 200, await tenantsPage(deps, contextOf(request, { notice }), shown ?? null));
      } catch (err) {
        const { status, message } = failureOf(request, err);
        return sendPage(reply, status, await tenantsPage(deps, contextOf(request, { error: message })));
      }
    };

  app.get('/admin/tenants', hidden, async (request, reply) => sendPage(reply, 200, await tenantsPage(deps, contextOf(request))));
  app.post(
    '/admin/tenants',
    hidden,
    acting(async (request) => {
      const name = field(request, 'name');
      if (name === '' || name.length > MAX_NAME_LENGTH) throw invalid(`A tenant's name is 1 to ${MAX_NAME_LENGTH} characters.`);
      const creds = await createTenantAsOperator(store, clock, name);
      return {
        notice: `Tenant ${name} created.`,
        shown: html`${shownOnce('API key', creds.apiKey, false)}${secret('Auth token', creds.authToken)}`,
      };
    }),
  );
  app.post(
    '/admin/tenants/:tenantId/tokens',
    hidden,
    acting(async (request) => {
      const tenant = await tenantById(store, request.params.tenantId);
      const token = await issueAuthToken(store, clock, tenant);
      return { notice: `A new auth token for ${tenant.name}.`, shown: secret('Auth token', token) };
    }),
  );
  app.post(
    '/admin/tenants/:tenantId/tokens/revoke',
    hidden,
    acting(async (request) => {
      const tenant = await tenantById(store, request.params.tenantId);
      const prefix = await revokeAuthToken(store, clock, tenant, field(request, 'prefix'));
      return { notice: `Auth token ${prefix}… of ${tenant.name} revoked.` };
    }),
  );
  app.post(
    '/admin/tenants/:tenantId/signing-key',
    hidden,
    acting(async (request) => {
      const tenant = await tenantById(store, request.params.tenantId);
      const kid = await rotateTokenSigningKey(store, clock, tenant);
      return {
        notice:
          kid === null
            ? `${tenant.name} has issued no end-user token yet: its first one makes its signing key.`
            : `A new end-user token signing key for ${tenant.name} (${kid}); tokens signed before are refused from now on.`,
      };
    }),
  );
  app.post(
    '/admin/tenants/:tenantId/revoke',
    hidden,
    acting(async (request) => {
      const tenant = await tenantById(store, request.params.tenantId);
      await revokeApiKey(store, clock, tenant);
      return { notice: `API key of ${tenant.name} revoked.` };
    }),
  );
}
