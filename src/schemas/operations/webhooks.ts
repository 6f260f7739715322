// Webhooks and their deliveries.
import { WebhookAddedResult, WebhookAttemptListResult, WebhookDeletedResult, WebhookListResult } from '../responses.js';
import { WebhookDeliveriesGetBody, WebhookIdBody, WebhooksAddBody, WebhooksGetBody } from '../webhooks.js';
import { contract } from './contract.js';

export const webhooks = {
  webhooksAdd: contract({
    paths: { v1: 'webhooks/add', v2: 'webhooks/add' },
    summary: 'Add a webhook: events are POSTed to its URL, signed (Standard Webhooks); its secret is shown only here',
    tags: ['webhooks'],
    body: WebhooksAddBody,
    result: WebhookAddedResult,
  }),
  webhooksGet: contract({
    paths: { v1: 'webhooks/get', v2: 'webhooks/get' },
    summary: "The tenant's webhooks, without their secrets",
    tags: ['webhooks'],
    body: WebhooksGetBody,
    result: WebhookListResult,
  }),
  webhooksDelete: contract({
    paths: { v1: 'webhooks/delete', v2: 'webhooks/delete' },
    summary: 'Delete a webhook; its pending deliveries are not made',
    tags: ['webhooks'],
    body: WebhookIdBody,
    result: WebhookDeletedResult,
    also: [404],
  }),
  webhookDeliveriesGet: contract({
    paths: { v1: 'webhooks/deliveries/get', v2: 'webhooks/deliveries/get' },
    summary: "A webhook's last delivery attempts, newest first and paged: status, response code, event, attempt number",
    tags: ['webhooks'],
    body: WebhookDeliveriesGetBody,
    result: WebhookAttemptListResult,
    also: [404],
  }),
};
