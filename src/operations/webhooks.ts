// Webhooks and their deliveries.
import { success } from '../http/envelope.js';
import { operation, pageTokenOf } from './operation.js';
import {
  WebhookAddedResult,
  WebhookAttemptListResult,
  WebhookDeletedResult,
  WebhookListResult,
  answers,
} from '../schemas/responses.js';
import { WebhookDeliveriesGetBody, WebhookIdBody, WebhooksAddBody, WebhooksGetBody } from '../schemas/webhooks.js';
import { addWebhook, deleteWebhook, getWebhookDeliveries, getWebhooks } from '../services/webhooks.js';

/** Webhooks and their deliveries. */
export const webhooks = [
  operation({
    paths: { v1: 'webhooks/add' },
    summary: 'Add a webhook: events are POSTed to its URL, signed (Standard Webhooks); its secret is shown only here',
    tags: ['webhooks'],
    body: WebhooksAddBody,
    response: answers(WebhookAddedResult),
    run: addWebhook,
    answer: 'Webhook added successfully.',
  }),
  operation({
    paths: { v1: 'webhooks/get' },
    summary: "The tenant's webhooks, without their secrets",
    tags: ['webhooks'],
    body: WebhooksGetBody,
    response: answers(WebhookListResult),
    run: (services, tenant) => getWebhooks(services, tenant),
    answer: 'Webhook(s) retrieved successfully.',
  }),
  operation({
    paths: { v1: 'webhooks/delete' },
    summary: 'Delete a webhook; its pending deliveries are not made',
    tags: ['webhooks'],
    body: WebhookIdBody,
    response: answers(WebhookDeletedResult, [404]),
    run: deleteWebhook,
    answer: 'Webhook deleted successfully.',
  }),
  operation({
    paths: { v1: 'webhooks/deliveries/get' },
    summary: "A webhook's last delivery attempts, newest first and paged: status, response code, event, attempt number",
    tags: ['webhooks'],
    body: WebhookDeliveriesGetBody,
    response: answers(WebhookAttemptListResult, [404]),
    run: getWebhookDeliveries,
    answer: (got) => success('Webhook deliveries retrieved successfully.', got.attempts, pageTokenOf(got.nextPageToken)),
  }),
];
