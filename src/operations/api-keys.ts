// Workspace keys and tokens: API keys managed with the workspace's credentials, and a key's own domains and
// configuration (docs/api.md, "Workspace keys and tokens").
import { success } from '../http/envelope.js';
import { nextPageTokenOf, operation, workspaceOperation } from './operation.js';
import { CONTRACT } from '../schemas/operations/index.js';
import {
  API_KEY_CREATED,
  API_KEY_UPDATED,
  API_KEYS_RETRIEVED,
  AUTH_TOKEN_RESET,
  AUTH_TOKENS_RETRIEVED,
  authTokensOf,
  createApiKey,
  listApiKeys,
  resetAuthToken,
  updateApiKey,
} from '../services/api-keys.js';
import {
  allowedDomainsOf,
  apiKeyConfigOf,
  CONFIG_RETRIEVED,
  CONFIG_UPDATED,
  DOMAINS_RETRIEVED,
  updateApiKeyConfig,
} from '../services/api-key-config.js';

/** Workspace keys and tokens. */
export const apiKeys = [
  workspaceOperation(CONTRACT.apiKeyCreate, { run: createApiKey, answer: API_KEY_CREATED }),
  workspaceOperation(CONTRACT.apiKeyUpdate, { run: updateApiKey, answer: API_KEY_UPDATED }),
  workspaceOperation(CONTRACT.apiKeysGet, {
    run: listApiKeys,
    answer: (page) => success(API_KEYS_RETRIEVED, page.data, nextPageTokenOf(page.nextPageToken)),
  }),
  workspaceOperation(CONTRACT.authTokensGet, { run: authTokensOf, answer: AUTH_TOKENS_RETRIEVED }),
  workspaceOperation(CONTRACT.authTokenReset, { run: resetAuthToken, answer: AUTH_TOKEN_RESET }),
  operation(CONTRACT.allowedDomainsGet, { run: allowedDomainsOf, answer: DOMAINS_RETRIEVED }),
  operation(CONTRACT.apiKeyConfigGet, { run: apiKeyConfigOf, answer: CONFIG_RETRIEVED }),
  operation(CONTRACT.apiKeyConfigUpdate, { run: updateApiKeyConfig, answer: CONFIG_UPDATED }),
];
