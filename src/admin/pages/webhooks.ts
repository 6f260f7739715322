// A tenant's webhook endpoints and their delivery attempts, with the two repairs of docs/events.md: replay one event
// to an endpoint, and recover every delivery that failed for good since a time; through services/webhooks.ts, as
// webhooks/deliveries/replay and webhooks/recover do them.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { invalid } from '../../errors.js';
import type { App } from '../../http/types.js';
import { MAX_ID_LENGTH } from '../../schemas/common.js';
import type { Caller } from '../../services/context.js';
import { tenantById } from '../../services/operator-keys.js';
import { getWebhookDeliveries, getWebhooks, recoverWebhookDeliveries, replayWebhookDelivery } from '../../services/webhooks.js';
import { type AdminDeps, contextOf, failureOf, field, sendPage } from '../console.js';
import { adminPath, html, isoTime, type Markup, query } from '../html.js';
import { button, csrfField, type PageContext, page } from '../layout.js';

const ATTEMPTS_PER_PAGE = 50;

type Request = FastifyRequest<{ Params: { tenantId: string; webhookId?: string }; Querystring: { page?: string } }>;

async function webhooksView(deps: AdminDeps, caller: Caller): Promise<Markup> {
  const webhooks = await getWebhooks(deps.services, caller);
  const rows = webhooks.map(
    (
      w,
    ) => html`<tr><td><a href="${adminPath('tenants', caller.id, 'webhooks', w.webhookId)}">${w.webhookId}</a></td><td>${w.url}</td>
<td>${(w.events ?? ['every event']).join(', ')}</td>
<td>${w.disabled ? `disabled${w.disabledReason ? `: ${w.disabledReason}` : ''}` : 'on'}</td></tr>`,
  );
  return html`<table><thead><tr><th>Webhook</th><th>URL</th><th>Events</th><th>State</th></tr></thead><tbody>${rows}</tbody></table>`;
}

async function deliveriesView(
  deps: AdminDeps,
  caller: Caller,
  ctx: PageContext,
  webhookId: string,
  pageToken?: string,
): Promise<Markup> {
  const { attempts, nextPageToken } = await getWebhookDeliveries(deps.services, caller, {
    webhookId,
    pageSize: ATTEMPTS_PER_PAGE,
    ...(pageToken ? { pageToken } : {}),
  });
  const at = adminPath('tenants', caller.id, 'webhooks', webhookId);
  const rows = attempts.map(
    (
      a,
    ) => html`<tr><td>${a.eventId}</td><td>${a.eventType}</td><td>${a.attempt}</td><td>${a.status}</td><td>${a.responseCode ?? ''}</td>
<td>${a.error ?? ''}</td><td>${isoTime(a.attemptedAt)}</td>
<td>${button(ctx, `${at}/replay`, 'Replay', { eventId: String(a.eventId) })}</td></tr>`,
  );
  const hour = 3_600_000;
  const since = new Date(deps.clock() - 24 * hour).toISOString().slice(0, 16);
  return html`<form method="post" action="${at}/recover" class="row">${csrfField(ctx)}
<label>Deliveries that failed for good since (UTC) <input type="datetime-local" name="since" value="${since}" required></label>
<button type="submit">Recover them</button></form>
<table><thead><tr><th>Event</th><th>Type</th><th>Attempt</th><th>Status</th><th>Answer</th><th>Error</th><th>At</th><th></th></tr></thead>
<tbody>${rows}</tbody></table>${nextPageToken ? html`<p><a href="${at}${query({ page: nextPageToken })}">Older attempts</a></p>` : ''}`;
}

const webhookIdOf = (request: Request) => {
  const id = request.params.webhookId ?? '';
  if (id === '' || id.length > MAX_ID_LENGTH) throw invalid('The webhook id must be 1 to 256 characters.');
  return id;
};

/** The time a datetime-local field gives, read as UTC. */
function sinceOf(text: string): number {
  const ms = Date.parse(/Z$|[+-]\d\d:\d\d$/.test(text) ? text : `${text}Z`);
  if (!Number.isFinite(ms) || ms < 0) throw invalid('Give the time as YYYY-MM-DDTHH:MM (UTC).');
  return ms;
}

export function registerWebhookPages(app: App, deps: AdminDeps): void {
  const { store } = deps.services;
  const hidden = { schema: { hide: true } };
  const answer = async (request: Request, reply: FastifyReply, ctx: PageContext, status: number) => {
    try {
      const tenant = await tenantById(store, request.params.tenantId);
      const back = html`<p class="muted">Tenant <a href="${adminPath('tenants', tenant.id, 'webhooks')}">${tenant.name}</a></p>`;
      if (request.params.webhookId === undefined)
        return sendPage(reply, status, page('Webhooks', ctx, html`${back}${await webhooksView(deps, tenant)}`));
      const webhookId = webhookIdOf(request);
      const body = await deliveriesView(deps, tenant, ctx, webhookId, request.method === 'GET' ? request.query.page : undefined);
      return sendPage(reply, status, page(`Deliveries of ${webhookId}`, ctx, html`${back}${body}`));
    } catch (err) {
      const failure = failureOf(request, err);
      return sendPage(reply, failure.status, page('Not shown', contextOf(request, { error: failure.message }), ''));
    }
  };
  const acting =
    (act: (caller: Caller, request: Request) => Promise<string>) => async (request: Request, reply: FastifyReply) => {
      try {
        const notice = await act(await tenantById(store, request.params.tenantId), request);
        return answer(request, reply, contextOf(request, { notice }), 200);
      } catch (err) {
        const failure = failureOf(request, err);
        return answer(request, reply, contextOf(request, { error: failure.message }), failure.status);
      }
    };
  const shown = (request: Request, reply: FastifyReply) => answer(request, reply, contextOf(request), 200);
  app.get('/admin/tenants/:tenantId/webhooks', hidden, shown);
  app.get('/admin/tenants/:tenantId/webhooks/:webhookId', hidden, shown);
  app.post(
    '/admin/tenants/:tenantId/webhooks/:webhookId/replay',
    hidden,
    acting(async (caller, request) => {
      const eventId = Number(field(request, 'eventId'));
      if (!Number.isSafeInteger(eventId) || eventId < 1) throw invalid('The event id is a whole number from 1.');
      const done = await replayWebhookDelivery(deps.services, caller, { webhookId: webhookIdOf(request), eventId });
      return `Event ${eventId} ${done.status === 'replayed' ? 'will be sent again' : 'is already waiting to be sent'}.`;
    }),
  );
  app.post(
    '/admin/tenants/:tenantId/webhooks/:webhookId/recover',
    hidden,
    acting(async (caller, request) => {
      const since = sinceOf(field(request, 'since'));
      const done = await recoverWebhookDeliveries(deps.services, caller, { webhookId: webhookIdOf(request), since });
      return `${done.recovered} failed deliveries since ${new Date(since).toISOString()} will be sent again.`;
    }),
  );
}
