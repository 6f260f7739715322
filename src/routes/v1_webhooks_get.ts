import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { answers, WebhookListResult } from '../schemas/responses.js';
import { WebhooksGetBody } from '../schemas/webhooks.js';
import type { Services } from '../services/context.js';
import { getWebhooks } from '../services/webhooks.js';

export const path = '/v1/webhooks/get';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: "The tenant's webhooks, without their secrets",
        tags: ['webhooks'],
        body: WebhooksGetBody(services.limits),
        response: answers(WebhookListResult),
      },
    },
    (request) => then(getWebhooks(services, tenantOf(request)), (list) => success('Webhook(s) retrieved successfully.', list)),
  );
}
