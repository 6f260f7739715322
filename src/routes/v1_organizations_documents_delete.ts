import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { DocumentsDeleteBody } from '../schemas/documents.js';
import { answers, DocumentsResult } from '../schemas/responses.js';
import type { Services } from '../services/context.js';
import { deleteDocuments } from '../services/documents.js';

export const path = '/v1/organizations/documents/delete';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: 'Delete documents with their threads, comments, notifications and memberships (SPEC 12)',
        tags: ['organizations'],
        body: DocumentsDeleteBody(services.limits),
        response: answers(DocumentsResult),
      },
    },
    (request) =>
      then(deleteDocuments(services, tenantOf(request), request.body.data), (data) =>
        success('Document(s) deleted successfully.', data),
      ),
  );
}
