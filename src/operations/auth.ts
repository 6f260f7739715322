// End-user tokens.
import { operation } from './operation.js';
import { CONTRACT } from '../schemas/operations/index.js';
import { issueEndUserToken, issueResourceToken } from '../services/end-user-tokens.js';

/** End-user tokens. */
export const auth = [
  operation(CONTRACT.authTokenGet, {
    // docs/api.md "POST /v1/auth/token/get": the credentials may also come as data.apiKey and data.authToken when
    // both headers are absent.
    config: { credentialsInBody: true },
    run: issueEndUserToken,
    answer: 'Token generated successfully.',
  }),
  // docs/api.md "POST /v2/auth/generate_token": the answer its page documents, as v1's.
  operation(CONTRACT.authGenerateToken, { run: issueResourceToken, answer: 'Token generated successfully.' }),
];
