// A document's live states.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendSuccessJson } from '../http/envelope.js';
import { operation, pageTokenOf } from './operation.js';
import { CONTRACT } from '../schemas/operations/index.js';
import { broadcastLiveState, getLiveStates } from '../services/livestate.js';
import { isRecord } from '../services/rules.js';

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

/** A document's live states. */
export const liveState = [
  operation(CONTRACT.liveStateBroadcast, {
    preValidation: acceptUnwrapped,
    run: broadcastLiveState,
    answer: 'Event broadcasted successfully.',
  }),
  operation(CONTRACT.liveStateGet, {
    run: getLiveStates,
    answer: ({ json, nextPageToken }, _request, reply) =>
      sendSuccessJson(reply, 'Live state retrieved successfully.', json, pageTokenOf(nextPageToken)),
  }),
];
