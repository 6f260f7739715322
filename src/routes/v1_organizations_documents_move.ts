import { tenantOf } from '../http/auth.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { DocumentsMoveBody } from '../schemas/documents.js';
import { answers, DocumentsMovedResult } from '../schemas/responses.js';
import type { Services } from '../services/context.js';
import { moveDocuments } from '../services/documents.js';

export const path = '/v1/organizations/documents/move';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: 'Move documents into a folder that exists, or out of any with "root" (SPEC 12)',
        tags: ['organizations'],
        body: DocumentsMoveBody(services.limits),
        response: answers(DocumentsMovedResult, [404]),
      },
    },
    // The original service's page shows the envelope with no data member.
    (request) =>
      then(moveDocuments(services, tenantOf(request), request.body.data), () => ({
        result: { status: 'success' as const, message: 'Documents moved successfully.' },
      })),
  );
}
