import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { DocumentsAccessBody } from '../schemas/documents.js';
import { answers, AccessResult } from '../schemas/responses.js';
import type { Services } from '../services/context.js';
import { setDocumentAccess } from '../services/documents.js';

export const path = '/v1/organizations/documents/access/update';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: "Set documents' access type (SPEC 12)",
        tags: ['organizations'],
        body: DocumentsAccessBody(services.limits),
        response: answers(AccessResult),
      },
    },
    (request) =>
      then(setDocumentAccess(services, tenantOf(request), request.body.data), (data) =>
        success('Updated access for documents successfully.', data),
      ),
  );
}
