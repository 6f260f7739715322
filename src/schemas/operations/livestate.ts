// A document's live states.
import { LiveStateBroadcastBody, LiveStateGetBody } from '../livestate.js';
import { LiveStateBroadcastResult, LiveStateListResult } from '../responses.js';
import { contract } from './contract.js';

export const livestate = {
  liveStateBroadcast: contract({
    paths: { v1: 'livestate/broadcast', v2: 'livestate/broadcast' },
    summary: "Set a document's live state under an id, replaced or shallow-merged, and announce it",
    description:
      '`data` replaces the state under `liveStateDataId`; with `merge: true` its members replace theirs in the state ' +
      '(nested objects whole). The event `livestate.broadcast` carries the state after the change to the stream (users ' +
      'who may access the document) and to webhooks.',
    tags: ['livestate'],
    body: LiveStateBroadcastBody,
    example: {
      organizationId: 'acme',
      documentId: 'spec',
      liveStateDataId: 'cursor-ada',
      data: { line: 12, selection: { from: 3, to: 9 } },
      merge: true,
    },
    result: LiveStateBroadcastResult,
  }),
  liveStateGet: contract({
    paths: { v1: 'livestate/get', v2: 'livestate/get' },
    summary: "A document's live states, by id or all, in id order, paged (extension)",
    tags: ['livestate'],
    body: LiveStateGetBody,
    example: { organizationId: 'acme', documentId: 'spec' },
    result: LiveStateListResult,
  }),
};
