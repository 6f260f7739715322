import { tenantOf } from '../http/auth.js';
import { sendSuccessJson } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { UserDataGetBody } from '../schemas/personal-data.js';
import { answers, UserDataResult } from '../schemas/responses.js';
import type { Services } from '../services/context.js';
import { getUserData } from '../services/personal-data.js';

export const path = '/v1/users/data/get';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary:
          "A page of a user's data in an organization: comments they wrote, notifications they acted or are addressed in (SPEC 12)",
        tags: ['users'],
        body: UserDataGetBody(services.limits),
        response: answers(UserDataResult),
      },
    },
    (request, reply) =>
      then(getUserData(services, tenantOf(request), request.body.data), ({ dataJson, nextPageToken }) =>
        sendSuccessJson(reply, 'Data fetched successfully.', dataJson, nextPageToken ? { nextPageToken } : {}),
      ),
  );
}
