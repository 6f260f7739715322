import { tenantOf } from '../http/auth.js';
import { sendSuccessJson } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { LiveStateGetBody } from '../schemas/livestate.js';
import { answers, LiveStateListResult } from '../schemas/responses.js';
import type { Services } from '../services/context.js';
import { getLiveStates } from '../services/livestate.js';

export const path = '/v1/livestate/get';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: "A document's live states, by id or all, in id order, paged (extension)",
        tags: ['livestate'],
        body: LiveStateGetBody(services.limits),
        response: answers(LiveStateListResult),
      },
    },
    (request, reply) =>
      then(getLiveStates(services, tenantOf(request), request.body.data), ({ json, nextPageToken }) =>
        sendSuccessJson(reply, 'Live state retrieved successfully.', json, nextPageToken ? { pageToken: nextPageToken } : {}),
      ),
  );
}
