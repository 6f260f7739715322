// Workspace keys and tokens: API keys (tenants) managed with the workspace's credentials, and a key's own
// domains and configuration read and set with its credentials.
import {
  AllowedDomainsResult,
  ApiKeyBody,
  ApiKeyConfigResult,
  ApiKeyConfigUpdateBody,
  ApiKeyConfigUpdatedResult,
  ApiKeyCreateBody,
  ApiKeyCreatedResult,
  ApiKeysGetBody,
  ApiKeysResult,
  ApiKeyUpdateBody,
  ApiKeyUpdatedResult,
  AuthTokenResetResult,
  AuthTokensResult,
  NoDataBody,
} from '../api-keys.js';
import { contract } from './contract.js';

const WORKSPACE = 'Workspace credentials (x-service-workspace-id, x-service-workspace-auth-token). ';

export const apiKeys = {
  apiKeyCreate: contract({
    paths: { v2: 'workspace/apikey/create' },
    credentials: 'workspace',
    summary: 'Create an API key (a tenant), with its first auth token when asked',
    description: `${WORKSPACE}The auth token is shown only in this answer.`,
    tags: ['workspace keys'],
    body: ApiKeyCreateBody,
    result: ApiKeyCreatedResult,
  }),
  apiKeyUpdate: contract({
    paths: { v2: 'workspace/apikey/update' },
    credentials: 'workspace',
    summary: 'Rename an API key',
    description: WORKSPACE,
    tags: ['workspace keys'],
    body: ApiKeyUpdateBody,
    result: ApiKeyUpdatedResult,
    also: [404],
  }),
  apiKeysGet: contract({
    paths: { v2: 'workspace/apikeys/get' },
    credentials: 'workspace',
    summary: 'The API keys of this installation, paged',
    description: WORKSPACE,
    tags: ['workspace keys'],
    body: ApiKeysGetBody,
    result: ApiKeysResult,
  }),
  authTokensGet: contract({
    paths: { v2: 'workspace/authtokens/get' },
    credentials: 'workspace',
    summary: "An API key's active auth tokens (their first characters: tokens are kept hashed)",
    description: WORKSPACE,
    tags: ['workspace keys'],
    body: ApiKeyBody,
    result: AuthTokensResult,
    also: [404],
  }),
  authTokenReset: contract({
    paths: { v2: 'workspace/authtoken/reset' },
    credentials: 'workspace',
    summary: 'A new auth token for an API key; its other tokens are revoked',
    description: `${WORKSPACE}The new token is shown only in this answer.`,
    tags: ['workspace keys'],
    body: ApiKeyBody,
    result: AuthTokenResetResult,
    also: [404],
  }),
  allowedDomainsGet: contract({
    paths: { v2: 'workspace/domains/get' },
    summary: "The key's allowed browser domains",
    tags: ['workspace'],
    body: NoDataBody,
    result: AllowedDomainsResult,
  }),
  apiKeyConfigGet: contract({
    paths: { v2: 'workspace/apikeyconfig/get' },
    summary: "The key's configuration",
    tags: ['workspace'],
    body: NoDataBody,
    result: ApiKeyConfigResult,
  }),
  apiKeyConfigUpdate: contract({
    paths: { v2: 'workspace/apikeyconfig/update' },
    summary: "Change the key's configuration, member by member",
    tags: ['workspace'],
    body: ApiKeyConfigUpdateBody,
    result: ApiKeyConfigUpdatedResult,
  }),
};
