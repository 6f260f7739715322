import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { DocumentsGetBody } from '../schemas/documents.js';
import { answers, DocumentListResult } from '../schemas/responses.js';
import type { Services } from '../services/context.js';
import { getDocuments } from '../services/documents.js';

export const path = '/v1/organizations/documents/get';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: "An organization's documents, by id and/or folder, in id order and paged (SPEC 12)",
        tags: ['organizations'],
        body: DocumentsGetBody(services.limits),
        response: answers(DocumentListResult),
      },
    },
    (request) =>
      then(getDocuments(services, tenantOf(request), request.body.data), (got) =>
        success('Document(s) retrieved successfully.', got.documents, got.nextPageToken ? { pageToken: got.nextPageToken } : {}),
      ),
  );
}
