// A document's live states.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendSuccessJson } from '../http/envelope.js';
import { operation, pageTokenOf } from './operation.js';
import { LiveStateBroadcastBody, LiveStateGetBody } from '../schemas/livestate.js';
import { LiveStateBroadcastResult, LiveStateListResult, answers } from '../schemas/responses.js';
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
  operation({
    paths: { v1: 'livestate/broadcast' },
    preValidation: acceptUnwrapped,
    summary: "Set a document's live state under an id, replaced or shallow-merged, and announce it",
    description:
      '`data` replaces the state under `liveStateDataId`; with `merge: true` its members replace theirs in the state ' +
      '(nested objects whole). The event `livestate.broadcast` carries the state after the change to the stream (users ' +
      'who may access the document) and to webhooks.',
    tags: ['livestate'],
    body: LiveStateBroadcastBody,
    response: answers(LiveStateBroadcastResult),
    run: broadcastLiveState,
    answer: 'Event broadcasted successfully.',
  }),
  operation({
    paths: { v1: 'livestate/get' },
    summary: "A document's live states, by id or all, in id order, paged (extension)",
    tags: ['livestate'],
    body: LiveStateGetBody,
    response: answers(LiveStateListResult),
    run: getLiveStates,
    answer: ({ json, nextPageToken }, _request, reply) =>
      sendSuccessJson(reply, 'Live state retrieved successfully.', json, pageTokenOf(nextPageToken)),
  }),
];
