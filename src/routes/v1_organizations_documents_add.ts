import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { DocumentsAddBody } from '../schemas/documents.js';
import { answers, DocumentsResult } from '../schemas/responses.js';
import type { Services } from '../services/context.js';
import { addDocuments } from '../services/documents.js';

export const path = '/v1/organizations/documents/add';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: 'Create documents, or rename them; optionally file them in a folder (SPEC 12)',
        tags: ['organizations'],
        body: DocumentsAddBody(services.limits),
        response: answers(DocumentsResult, [404]),
      },
    },
    (request) =>
      then(addDocuments(services, tenantOf(request), request.body.data), (data) =>
        success('Document(s) added successfully.', data),
      ),
  );
}
