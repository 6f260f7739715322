// End-user tokens.
import { operation } from './operation.js';
import { AuthTokenBody } from '../schemas/auth.js';
import { AuthTokenResult, answers } from '../schemas/responses.js';
import { issueEndUserToken } from '../services/end-user-tokens.js';

/** End-user tokens. */
export const auth = [
  operation({
    paths: { v1: 'auth/token/get' },
    // SPEC 13: the credentials may also come as data.apiKey and data.authToken when both headers are absent.
    config: { credentialsInBody: true },
    summary: 'Issue a signed end-user token (JWT, 48 hours) for the event stream (SPEC 13)',
    description:
      'Your server calls it with the server credentials (or `data.apiKey` and `data.authToken` when both headers are ' +
      "absent) and hands the token to that user's browser. The token opens `GET /v1/events` only, as " +
      "`Authorization: Bearer <token>` or `?token=`, and carries that user's share of the events; every POST still " +
      'needs the server credentials.',
    tags: ['auth'],
    body: AuthTokenBody,
    response: answers(AuthTokenResult),
    run: issueEndUserToken,
    answer: 'Token generated successfully.',
  }),
];
