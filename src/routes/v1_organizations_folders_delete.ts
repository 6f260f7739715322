import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { FoldersDeleteBody } from '../schemas/folders.js';
import { answers, FoldersResult } from '../schemas/responses.js';
import type { Services } from '../services/context.js';
import { deleteFolders } from '../services/folders.js';

export const path = '/v1/organizations/folders/delete';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: 'Delete folders with their subtrees; their documents move to no folder (extension, SPEC 12)',
        tags: ['organizations'],
        body: FoldersDeleteBody(services.limits),
        response: answers(FoldersResult),
      },
    },
    (request) =>
      then(deleteFolders(services, tenantOf(request), request.body.data), (data) =>
        success('Folder(s) deleted successfully.', data),
      ),
  );
}
