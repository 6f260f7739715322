// Webhooks and their deliveries.
import { success } from '../http/envelope.js';
import { operation, pageTokenOf } from './operation.js';
import { CONTRACT } from '../schemas/operations/index.js';
import { addWebhook, deleteWebhook, enableWebhook, getWebhookDeliveries, getWebhooks } from '../services/webhooks.js';

/** Webhooks and their deliveries. */
export const webhooks = [
  operation(CONTRACT.webhooksAdd, {
    run: addWebhook,
    answer: 'Webhook added successfully.',
  }),
  operation(CONTRACT.webhooksGet, {
    run: (services, tenant) => getWebhooks(services, tenant),
    answer: 'Webhook(s) retrieved successfully.',
  }),
  operation(CONTRACT.webhooksDelete, {
    run: deleteWebhook,
    answer: 'Webhook deleted successfully.',
  }),
  operation(CONTRACT.webhooksEnable, { run: enableWebhook, answer: 'Webhook enabled successfully.' }),
  operation(CONTRACT.webhookDeliveriesGet, {
    run: getWebhookDeliveries,
    answer: (got) => success('Webhook deliveries retrieved successfully.', got.attempts, pageTokenOf(got.nextPageToken)),
  }),
];
