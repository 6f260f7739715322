import { tenantOf } from '../http/auth.js';
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
        description:
          'Answers HTTP 202 with the body the original service documents: `status`, `message`, `data` and ' +
          '`statusCode` at the top, with no `result` wrapper (docs/decisions.md).',
        tags: ['users'],
        body: UserDataDeleteBody(services.limits),
        response: answers(ErasureResult, [], { successStatus: 202 }),
      },
    },
    async (request, reply) => {
      const data = await deleteUserData(services, tenantOf(request), request.body.data);
      reply.code(202);
      return { status: 'success' as const, message: 'Data deletion process has been initiated.', data, statusCode: 202 as const };
    },
  );
}
