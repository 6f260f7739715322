import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { UserDataStatusBody } from '../schemas/personal-data.js';
import { answers, ErasureStatusResult } from '../schemas/responses.js';
import type { Services } from '../services/context.js';
import { erasureStatus } from '../services/personal-data.js';

export const path = '/v1/users/data/delete/status';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: 'The state of a users/data/delete job (SPEC 12)',
        tags: ['users'],
        body: UserDataStatusBody(services.limits),
        response: answers(ErasureStatusResult, [404]),
      },
    },
    (request) =>
      then(erasureStatus(services, tenantOf(request), request.body.data), (data) => success('Data fetched successfully.', data)),
  );
}
