import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import type { App } from '../http/types.js';
import { AuthTokenBody } from '../schemas/auth.js';
import { AuthTokenResult, answers } from '../schemas/responses.js';
import type { Services } from '../services/context.js';
import { issueEndUserToken } from '../services/end-user-tokens.js';

export const path = '/v1/auth/token/get';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      // SPEC 13: the credentials may also come as data.apiKey and data.authToken when both headers are absent.
      config: { credentialsInBody: true },
      schema: {
        summary: 'Issue a signed end-user token (JWT, 48 hours) for the event stream (SPEC 13)',
        description:
          'Your server calls it with the server credentials (or `data.apiKey` and `data.authToken` when both headers are ' +
          "absent) and hands the token to that user's browser. The token opens `GET /v1/events` only, as " +
          "`Authorization: Bearer <token>` or `?token=`, and carries that user's share of the events; every POST still " +
          'needs the server credentials.',
        tags: ['auth'],
        body: AuthTokenBody(services.limits),
        response: answers(AuthTokenResult),
      },
    },
    async (request) =>
      success('Token generated successfully.', await issueEndUserToken(services, tenantOf(request), request.body.data)),
  );
}
