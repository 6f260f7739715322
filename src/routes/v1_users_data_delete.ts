import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { UserDataDeleteBody } from '../schemas/personal-data.js';
import { answers, ErasureResult } from '../schemas/responses.js';
import type { Services } from '../services/context.js';
import { deleteUserData } from '../services/personal-data.js';

export const path = '/v1/users/data/delete';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: 'Erase the personal data of users in the organizations named, or all; done before the answer (SPEC 12)',
        tags: ['users'],
        body: UserDataDeleteBody(services.limits),
        response: answers(ErasureResult),
      },
    },
    (request) =>
      then(deleteUserData(services, tenantOf(request), request.body.data), (data) =>
        success('Data deletion process has been initiated.', data),
      ),
  );
}
