import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import type { App } from '../http/types.js';
import { answers, WebhookAddedResult } from '../schemas/responses.js';
import { WebhooksAddBody } from '../schemas/webhooks.js';
import type { Services } from '../services/context.js';
import { addWebhook } from '../services/webhooks.js';

export const path = '/v1/webhooks/add';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: 'Add a webhook: events are POSTed to its URL, signed (Standard Webhooks); its secret is shown only here',
        tags: ['webhooks'],
        body: WebhooksAddBody(services.limits),
        response: answers(WebhookAddedResult),
      },
    },
    async (request) => success('Webhook added successfully.', await addWebhook(services, tenantOf(request), request.body.data)),
  );
}
