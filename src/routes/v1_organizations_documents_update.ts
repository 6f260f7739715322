import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { DocumentsUpdateBody } from '../schemas/documents.js';
import { answers, DocumentsResult } from '../schemas/responses.js';
import type { Services } from '../services/context.js';
import { updateDocuments } from '../services/documents.js';

export const path = '/v1/organizations/documents/update';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: 'Rename documents that exist (SPEC 12)',
        tags: ['organizations'],
        body: DocumentsUpdateBody(services.limits),
        response: answers(DocumentsResult),
      },
    },
    (request) =>
      then(updateDocuments(services, tenantOf(request), request.body.data), (data) =>
        success('Document(s) updated successfully.', data),
      ),
  );
}
