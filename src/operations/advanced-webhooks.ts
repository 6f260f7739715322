// Advanced webhooks (/v2 pages) and the operators' webhook extensions, on the one webhook engine.
import { operation } from './operation.js';
import { CONTRACT } from '../schemas/operations/index.js';
import {
  createEndpoint,
  deleteEndpoint,
  getAdvancedConfig,
  getEndpoints,
  getEndpointSecret,
  updateAdvancedConfig,
  updateEndpoint,
} from '../services/advanced-webhooks.js';
import { getWebhookConfig, updateWebhookConfig } from '../services/webhook-config.js';
import { recoverWebhookDeliveries, replayWebhookDelivery, rotateWebhookSecret } from '../services/webhooks.js';

/** The endpoint and configuration pages, with the messages the pages print. */
export const advancedWebhooks = [
  operation(CONTRACT.endpointsCreate, { run: createEndpoint, answer: 'Advanced webhook endpoint created successfully.' }),
  operation(CONTRACT.endpointsGet, { run: getEndpoints, answer: 'Advanced webhook endpoints retrieved successfully.' }),
  operation(CONTRACT.endpointsUpdate, { run: updateEndpoint, answer: 'Advanced webhook endpoint updated successfully.' }),
  operation(CONTRACT.endpointsDelete, { run: deleteEndpoint, answer: 'Advanced webhook endpoint deleted successfully.' }),
  operation(CONTRACT.endpointSecretGet, {
    run: getEndpointSecret,
    answer: 'Advanced webhook endpoint secret retrieved successfully.',
  }),
  operation(CONTRACT.advancedWebhookConfigGet, {
    run: (services, tenant) => getAdvancedConfig(services, tenant),
    answer: 'Advanced webhook configuration retrieved successfully.',
  }),
  operation(CONTRACT.advancedWebhookConfigUpdate, {
    run: updateAdvancedConfig,
    answer: 'Advanced webhook configuration updated successfully.',
  }),
  operation(CONTRACT.webhookConfigGet, {
    run: (services, tenant) => getWebhookConfig(services, tenant),
    answer: 'Webhook configuration retrieved successfully.',
  }),
  operation(CONTRACT.webhookConfigUpdate, { run: updateWebhookConfig, answer: 'Webhook configuration updated successfully.' }),
];

/** What an operator of webhooks needs beside the pages: replay, recover, rotate (extensions, /v1 and /v2). */
export const webhookOperators = [
  operation(CONTRACT.webhookDeliveryReplay, { run: replayWebhookDelivery, answer: 'Webhook delivery replayed successfully.' }),
  operation(CONTRACT.webhooksRecover, { run: recoverWebhookDeliveries, answer: 'Webhook deliveries recovered successfully.' }),
  operation(CONTRACT.webhookSecretRotate, { run: rotateWebhookSecret, answer: 'Webhook secret rotated successfully.' }),
];
