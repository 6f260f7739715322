// End-user tokens.
import { AuthTokenBody } from '../auth.js';
import { AuthTokenResult } from '../responses.js';
import { contract } from './contract.js';

export const auth = {
  authTokenGet: contract({
    paths: { v1: 'auth/token/get' },
    summary: 'Issue a signed end-user token (JWT, 48 hours) for the event stream',
    description:
      'Your server calls it with the server credentials (or `data.apiKey` and `data.authToken` when both headers are ' +
      "absent) and hands the token to that user's browser. The token opens `GET /v1/events` only, as " +
      "`Authorization: Bearer <token>` or `?token=`, and carries that user's share of the events; every POST still " +
      'needs the server credentials.',
    tags: ['auth'],
    body: AuthTokenBody,
    result: AuthTokenResult,
  }),
};
