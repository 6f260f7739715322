import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { DocumentsDisableBody } from '../schemas/documents.js';
import { answers, DisableStateResult } from '../schemas/responses.js';
import type { Services } from '../services/context.js';
import { setDocumentsDisabled } from '../services/documents.js';

export const path = '/v1/organizations/documents/access/disablestate/update';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: 'Disable documents, or enable them again; a missing document is created (SPEC 12)',
        tags: ['organizations'],
        body: DocumentsDisableBody(services.limits),
        response: answers(DisableStateResult),
      },
    },
    (request) =>
      then(setDocumentsDisabled(services, tenantOf(request), request.body.data), (data) =>
        success('Updated disable state for documents successfully.', data),
      ),
  );
}
