import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { answers, WebhookAttemptListResult } from '../schemas/responses.js';
import { WebhookDeliveriesGetBody } from '../schemas/webhooks.js';
import type { Services } from '../services/context.js';
import { getWebhookDeliveries } from '../services/webhooks.js';

export const path = '/v1/webhooks/deliveries/get';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: "A webhook's last delivery attempts, newest first and paged: status, response code, event, attempt number",
        tags: ['webhooks'],
        body: WebhookDeliveriesGetBody(services.limits),
        response: answers(WebhookAttemptListResult, [404]),
      },
    },
    (request) =>
      then(getWebhookDeliveries(services, tenantOf(request), request.body.data), (got) =>
        success(
          'Webhook deliveries retrieved successfully.',
          got.attempts,
          got.nextPageToken ? { pageToken: got.nextPageToken } : {},
        ),
      ),
  );
}
