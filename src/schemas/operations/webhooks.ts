// Webhooks and their deliveries.
import {
  WebhookAddedResult,
  WebhookAttemptListResult,
  WebhookDeletedResult,
  WebhookListResult,
  WebhookResult,
} from '../responses.js';
import { WebhookDeliveriesGetBody, WebhookIdBody, WebhooksAddBody, WebhooksGetBody } from '../webhooks.js';
import { contract } from './contract.js';

export const webhooks = {
  webhooksAdd: contract({
    paths: { v1: 'webhooks/add', v2: 'webhooks/add' },
    summary: 'Add a webhook: events are POSTed to its URL, signed (Standard Webhooks); its secret is shown here',
    tags: ['webhooks'],
    body: WebhooksAddBody,
    example: {
      url: 'https://hooks.example.com/marginalia',
      events: ['comment.*', 'notification.add'],
      description: 'comments to Slack',
    },
    result: WebhookAddedResult,
  }),
  webhooksGet: contract({
    paths: { v1: 'webhooks/get', v2: 'webhooks/get' },
    summary: "The tenant's webhooks, without their secrets",
    tags: ['webhooks'],
    body: WebhooksGetBody,
    example: {},
    result: WebhookListResult,
  }),
  webhooksDelete: contract({
    paths: { v1: 'webhooks/delete', v2: 'webhooks/delete' },
    summary: 'Delete a webhook; its pending deliveries are not made',
    tags: ['webhooks'],
    body: WebhookIdBody,
    example: { webhookId: 'wh_5f0c2a9e7b4d41c6a8e3f1b0d9c7e5a2' },
    result: WebhookDeletedResult,
    also: [404],
  }),
  webhooksEnable: contract({
    paths: { v1: 'webhooks/enable', v2: 'webhooks/enable' },
    summary: 'Switch a webhook on again: one the server switched off after failing too long, or one switched off (extension)',
    description:
      'Its failures are forgotten and its held deliveries go out, in order. A webhook of the advanced pages stays held ' +
      'while the tenant has advanced webhooks switched off (advancedwebhookconfig `isEnabled: false`).',
    tags: ['webhooks'],
    body: WebhookIdBody,
    example: { webhookId: 'wh_5f0c2a9e7b4d41c6a8e3f1b0d9c7e5a2' },
    result: WebhookResult,
    also: [404],
  }),
  webhookDeliveriesGet: contract({
    paths: { v1: 'webhooks/deliveries/get', v2: 'webhooks/deliveries/get' },
    summary: "A webhook's last delivery attempts, newest first and paged: status, response code, event, attempt number",
    tags: ['webhooks'],
    body: WebhookDeliveriesGetBody,
    example: { webhookId: 'wh_5f0c2a9e7b4d41c6a8e3f1b0d9c7e5a2', pageSize: 50 },
    result: WebhookAttemptListResult,
    also: [404],
  }),
};
