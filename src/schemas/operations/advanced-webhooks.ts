// Advanced webhooks (/v2 pages: endpoints and the two configuration pages), and the operators' webhook
// extensions (replay, recover, rotate), all on the one webhook engine (docs/events.md, "Webhooks").
import {
  AdvancedConfigResult,
  AdvancedConfigUpdateBody,
  EndpointCreateBody,
  EndpointDeletedResult,
  EndpointIdBody,
  EndpointListResult,
  EndpointResult,
  EndpointSecretResult,
  EndpointsGetBody,
  EndpointUpdateBody,
  NoData,
  RecoverBody,
  RecoverResult,
  ReplayBody,
  ReplayResult,
  RotatedResult,
  WebhookConfigResult,
  WebhookConfigUpdateBody,
} from '../advanced-webhooks.js';
import { WebhookIdBody } from '../webhooks.js';
import { contract } from './contract.js';

const ENABLE_FIRST = ' Advanced webhooks must be enabled first (advancedwebhookconfig/update {"isEnabled": true}).';

export const advancedWebhooks = {
  endpointsCreate: contract({
    paths: { v2: 'workspace/advancedwebhook/endpoints/create' },
    summary: 'Create a webhook endpoint: filterTypes, channels, disabled, rateLimit, metadata, uid',
    description:
      'A webhook of the engine (webhooks/get lists it too); its secret through endpoints/secret/get. A `uid` is unique ' +
      `among the tenant's endpoints: one taken is 409 \`ALREADY_EXISTS\`.${ENABLE_FIRST}`,
    tags: ['webhooks'],
    body: EndpointCreateBody,
    result: EndpointResult,
    also: [409],
  }),
  endpointsGet: contract({
    paths: { v2: 'workspace/advancedwebhook/endpoints/get' },
    summary: "The tenant's webhook endpoints, paged by iterator; disabled with the reason when the server switched one off",
    description: ENABLE_FIRST.trim(),
    tags: ['webhooks'],
    body: EndpointsGetBody,
    result: EndpointListResult,
  }),
  endpointsUpdate: contract({
    paths: { v2: 'workspace/advancedwebhook/endpoints/update' },
    summary: "Change an endpoint's members (those sent); disabled false switches it on again",
    description: ENABLE_FIRST.trim(),
    tags: ['webhooks'],
    body: EndpointUpdateBody,
    result: EndpointResult,
    also: [404],
  }),
  endpointsDelete: contract({
    paths: { v2: 'workspace/advancedwebhook/endpoints/delete' },
    summary: 'Delete an endpoint; its pending deliveries are not made',
    description: ENABLE_FIRST.trim(),
    tags: ['webhooks'],
    body: EndpointIdBody,
    result: EndpointDeletedResult,
    also: [404],
  }),
  endpointSecretGet: contract({
    paths: { v2: 'workspace/advancedwebhook/endpoints/secret/get' },
    summary: "An endpoint's signing secret (whsec_...)",
    description: ENABLE_FIRST.trim(),
    tags: ['webhooks'],
    body: EndpointIdBody,
    result: EndpointSecretResult,
    also: [404],
  }),
  advancedWebhookConfigGet: contract({
    paths: { v2: 'workspace/advancedwebhookconfig/get' },
    summary: "The tenant's advanced webhook configuration (defaults until set)",
    tags: ['webhooks'],
    body: NoData,
    result: AdvancedConfigResult,
  }),
  advancedWebhookConfigUpdate: contract({
    paths: { v2: 'workspace/advancedwebhookconfig/update' },
    summary: "Change the advanced webhook configuration; isEnabled false holds every endpoint's deliveries",
    tags: ['webhooks'],
    body: AdvancedConfigUpdateBody,
    result: AdvancedConfigResult,
  }),
  webhookConfigGet: contract({
    paths: { v2: 'workspace/webhookconfig/get' },
    summary: "The tenant's basic webhook service configuration",
    tags: ['webhooks'],
    body: NoData,
    result: WebhookConfigResult,
  }),
  webhookConfigUpdate: contract({
    paths: { v2: 'workspace/webhookconfig/update' },
    summary: 'Change the basic webhook service configuration (merged into the stored one)',
    tags: ['webhooks'],
    body: WebhookConfigUpdateBody,
    result: WebhookConfigResult,
  }),
  webhookDeliveryReplay: contract({
    paths: { v1: 'webhooks/deliveries/replay', v2: 'webhooks/deliveries/replay' },
    summary: "Send one event again to a webhook: its delivery is pending again, next in its organization's order (extension)",
    tags: ['webhooks'],
    body: ReplayBody,
    result: ReplayResult,
    also: [404],
  }),
  webhooksRecover: contract({
    paths: { v1: 'webhooks/recover', v2: 'webhooks/recover' },
    summary:
      "Every delivery of a webhook that failed for good since a time, pending again, in each organization's event order (extension)",
    tags: ['webhooks'],
    body: RecoverBody,
    result: RecoverResult,
    also: [404],
  }),
  webhookSecretRotate: contract({
    paths: { v1: 'webhooks/secret/rotate', v2: 'webhooks/secret/rotate' },
    summary: 'A new secret for a webhook; the one before signs too for MARGINALIA_WEBHOOK_SECRET_GRACE_HOURS (extension)',
    tags: ['webhooks'],
    body: WebhookIdBody,
    result: RotatedResult,
    also: [404],
  }),
};
