import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { answers, WebhookDeletedResult } from '../schemas/responses.js';
import { WebhookIdBody } from '../schemas/webhooks.js';
import type { Services } from '../services/context.js';
import { deleteWebhook } from '../services/webhooks.js';

export const path = '/v1/webhooks/delete';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: 'Delete a webhook; its pending deliveries are not made',
        tags: ['webhooks'],
        body: WebhookIdBody(services.limits),
        response: answers(WebhookDeletedResult, [404]),
      },
    },
    (request) =>
      then(deleteWebhook(services, tenantOf(request), request.body.data), (data) =>
        success('Webhook deleted successfully.', data),
      ),
  );
}
