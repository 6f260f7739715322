import type { FastifyReply, FastifyRequest } from 'fastify';
import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { LiveStateBroadcastBody } from '../schemas/livestate.js';
import { answers, LiveStateBroadcastResult } from '../schemas/responses.js';
import type { Services } from '../services/context.js';
import { broadcastLiveState } from '../services/livestate.js';
import { isRecord } from '../services/rules.js';

export const path = '/v1/livestate/broadcast';

/**
 * The original service's page prints its example without the `{"data": ...}` envelope (its `data` is
 * the state), and that body must work as printed: a body whose top level has a string
 * `liveStateDataId` while its `data` has none is the operation's data (docs/decisions.md, "Live
 * state"). Any other body is validated as it came, so the envelope stays the rule.
 */
function acceptUnwrapped(request: FastifyRequest, _reply: FastifyReply, done: () => void): void {
  const body = request.body;
  if (isRecord(body) && typeof body.liveStateDataId === 'string' && !(isRecord(body.data) && 'liveStateDataId' in body.data))
    request.body = { data: body };
  done();
}

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      preValidation: acceptUnwrapped,
      schema: {
        summary: "Set a document's live state under an id, replaced or shallow-merged, and announce it",
        description:
          '`data` replaces the state under `liveStateDataId`; with `merge: true` its members replace theirs in the state ' +
          '(nested objects whole). The event `livestate.broadcast` carries the state after the change to the stream (users ' +
          'who may access the document) and to webhooks.',
        tags: ['livestate'],
        body: LiveStateBroadcastBody(services.limits),
        response: answers(LiveStateBroadcastResult),
      },
    },
    (request) =>
      then(broadcastLiveState(services, tenantOf(request), request.body.data), (data) =>
        success('Event broadcasted successfully.', data),
      ),
  );
}
