// End-user tokens.
import { AuthTokenBody, GenerateTokenBody, MAX_TOKEN_RESOURCES } from '../auth.js';
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
    example: { userId: 'ada', userProperties: { organizationId: 'acme', email: 'ada@acme.test', name: 'Ada', isAdmin: false } },
    result: AuthTokenResult,
  }),
  // v2's page of the same name takes other members (resources instead of an organizationId, header
  // credentials only), so it is a declaration of its own rather than an adapter (docs/decisions.md).
  authGenerateToken: contract({
    paths: { v2: 'auth/generate_token' },
    // The original service's own sample application calls it under this name too.
    aliases: { v2: ['auth/token/get'] },
    summary: 'Issue a signed end-user token (JWT, 48 hours) naming the resources its user may access',
    description:
      "Your server calls it with the server credentials and hands the token to that user's browser; it is also " +
      'served at `/v2/auth/token/get`. `permissions.resources` names 1 to ' +
      `${MAX_TOKEN_RESOURCES} organizations, folders and documents, each with an \`accessRole\` (viewer or editor, ` +
      'the default) and an optional `expiresAt`; a folder or document names its `organizationId`. The token is ' +
      "v1's (it opens `GET /v1/events` as `Authorization: Bearer <token>` or `?token=`, with the share of the " +
      "first resource's organization) and carries the resources and roles; the user holds those roles from then on " +
      '(as auth/permissions/add gives them).',
    tags: ['auth'],
    body: GenerateTokenBody,
    example: {
      userId: 'ada',
      userProperties: { name: 'Ada', email: 'ada@acme.test', isAdmin: false },
      permissions: {
        resources: [
          { type: 'organization', id: 'acme', accessRole: 'viewer' },
          { type: 'document', id: 'spec', organizationId: 'acme', accessRole: 'editor', expiresAt: 1893456000 },
        ],
      },
    },
    result: AuthTokenResult,
  }),
};
