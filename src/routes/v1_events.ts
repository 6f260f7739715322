// GET /v1/events (docs/events.md, "The live stream: GET /v1/events"): the tenant's events as Server-Sent Events,
// with the server credentials, or an end-user token's share of them (its organization, its notifications, the
// threads it may see). Filters: organizationId, documentId, types (a comma list; `family.*` for a family).
// Last-Event-ID (the header a reconnecting EventSource sends, or the lastEventId parameter) resumes from the
// outbox.
import { Type } from 'typebox';
import { ApiError, invalid } from '../errors.js';
import { queryableTokenOf, serverCredentialsOf } from '../http/auth.js';
import { allowTenantOrigin, originRefused } from '../http/cors.js';
import { allows } from '../domain/access.js';
import { then } from '../maybe.js';
import { accessTo, denied, endUserOf } from '../services/end-users.js';
import { EVENT_STREAM_DOC } from '../http/api-docs.js';
import { MAX_END_USER_TOKEN_LENGTH } from '../schemas/auth.js';
import { Id } from '../schemas/common.js';
import { EVENT_CATEGORIES, EVENT_TYPE_PATTERN } from '../schemas/webhooks.js';
import type { App } from '../http/types.js';
import type { CredentialWatch } from '../events/credential-watch.js';
import type { EventHub } from '../events/hub.js';
import { EndUserScope } from '../events/stream-access.js';
import { EventStream, type StreamFilters } from '../events/stream.js';
import { TypeFilter } from '../store/events/type-filter.js';
import type { Services } from '../services/context.js';
import { checkTokenTenant, type EndUserClaims, verifyEndUserToken } from '../services/end-user-tokens.js';
import { authenticateHashed } from '../services/credentials.js';

export const path = '/v1/events';

export interface StreamSettings {
  hub: EventHub;
  credentials: CredentialWatch;
  heartbeatMs: number;
  bufferBytes: number;
  maxStreams: number;
}

/**
 * The query. Any other parameter is refused (400, docs/events.md): a misspelt filter (`organizationid`)
 * would otherwise open a stream of every event, unfiltered. lastEventId is read by `resumeAfter`, which
 * says what is wrong with a bad one.
 */
export const EventsQuery = Type.Object(
  {
    organizationId: Type.Optional(Id),
    documentId: Type.Optional(Id),
    types: Type.Optional(
      Type.String({ minLength: 1, maxLength: 4096, description: 'Comma list of types; `family.*` for a family.' }),
    ),
    token: Type.Optional(
      Type.String({ minLength: 1, maxLength: MAX_END_USER_TOKEN_LENGTH, description: 'An end-user token (auth/token/get).' }),
    ),
    lastEventId: Type.Optional(Type.String({ maxLength: 64, description: 'Resume after this event id.' })),
  },
  { additionalProperties: false },
);

/**
 * The same grammar as a webhook's `events`: a type of one of the event families (docs/events.md,
 * "Event types and their data"), or the whole family.
 */
const TYPE = new RegExp(EVENT_TYPE_PATTERN);

function typesOf(raw: string | undefined): TypeFilter | null {
  if (raw === undefined) return null;
  const types = raw.split(',').map((t) => t.trim());
  const bad = types.find((t) => !TYPE.test(t));
  if (bad !== undefined) {
    throw invalid(
      `types lists "${bad.slice(0, 80)}", which is not an event type (such as comment.add) or family (comment.*) ` +
        `of ${EVENT_CATEGORIES.join(', ')}.`,
    );
  }
  return new TypeFilter(types);
}

function resumeAfter(header: string | string[] | undefined, query: string | undefined): number | null {
  const raw = typeof header === 'string' ? header : query;
  if (raw === undefined) return null;
  if (!/^[0-9]{1,15}$/.test(raw)) throw invalid(`Last-Event-ID must be an event id (a whole number), got "${raw.slice(0, 40)}".`);
  return Number(raw);
}

/** What an end-user token let in: its tenant and its share (set before validation, so a 401 comes first). */
const endUsers = new WeakMap<object, EndUserClaims>();

export function register(app: App, services: Services, settings: StreamSettings): void {
  app.get(
    path,
    {
      config: { endUserToken: true },
      // Without server credentials, the token is checked before the query is (docs/api.md, "Wire format": a 401
      // comes first).
      preValidation: async (request, reply) => {
        if (request.tenant) return;
        const token = queryableTokenOf(request);
        const claims = await verifyEndUserToken(services, token);
        endUsers.set(request, claims);
        // A page on one of the tenant's allowed domains may read the stream, and a 400 about its query; a page
        // on any other is refused (docs/api.md, "End users").
        if (!(await allowTenantOrigin(services.store, claims.tenantId, request, reply)))
          throw denied(originRefused(request.headers.origin));
      },
      schema: {
        summary: 'Stream the tenant’s events as Server-Sent Events',
        tags: ['events'],
        querystring: EventsQuery,
        // Credentials, the message format (a text/event-stream 200), Last-Event-ID, the errors: /openapi.json.
        ...EVENT_STREAM_DOC,
      },
    },
    async (request, reply) => {
      const q = request.query;
      let tenantId: string;
      let scope: EndUserScope | null = null;
      let organizationId = q.organizationId ?? null;
      if (request.tenant) tenantId = request.tenant.id;
      else {
        const claims = endUsers.get(request)!;
        tenantId = claims.tenantId;
        const user = endUserOf(claims);
        scope = new EndUserScope(claims.organizationId, claims.userId, (documentId) =>
          then(accessTo(services, user, claims.organizationId, documentId), (access) => ({
            member: access.member,
            document: allows(access.access, 'read'),
          })),
        );
        // A token sees its own organization only; another one asked for shows nothing.
        organizationId ??= claims.organizationId;
      }
      const filters: StreamFilters = { organizationId, documentId: q.documentId ?? null, types: typesOf(q.types) };
      const after = resumeAfter(request.headers['last-event-id'], q.lastEventId);
      const { hub } = settings;
      if (hub.size >= settings.maxStreams) {
        throw new ApiError('UNAVAILABLE', 'This instance has as many event streams open as it may; retry shortly.', {
          headers: { 'retry-after': '5' },
        });
      }
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string | string[] | number>),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
      });
      // The server's suggestion to EventSource for a reconnect after a dropped connection.
      res.write('retry: 1000\n\n');
      let unwatch = () => {};
      const stream = new EventStream(tenantId, res, filters, scope, after, {
        bufferBytes: settings.bufferBytes,
        heartbeatMs: settings.heartbeatMs,
        onEnd: () => {
          hub.unsubscribe(stream);
          unwatch();
        },
      });
      try {
        await hub.subscribe(stream, after);
      } catch (err) {
        // The 200 is out: the stream ends with a reason, and the client resumes from where it asked.
        request.log.warn({ err }, 'event stream: the outbox could not be read');
        return stream.end('The stream could not read the event outbox; reconnect with Last-Event-ID to resume.');
      }
      stream.opened();
      // While it is open, a revoked key or token, or a disabled tenant, ends it (events/credential-watch.ts).
      const server = serverCredentialsOf(request);
      unwatch = settings.credentials.watch(
        stream,
        request.tenant && server
          ? () => authenticateHashed(services.store, server.apiKey, server.tokenHash)
          : () => checkTokenTenant(services.store, tenantId),
      );
    },
  );
}
