import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { FoldersBody } from '../schemas/folders.js';
import { answers, FoldersResult } from '../schemas/responses.js';
import type { Services } from '../services/context.js';
import { updateFolders } from '../services/folders.js';

export const path = '/v1/organizations/folders/update';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: 'Rename and move folders that exist (SPEC 12)',
        tags: ['organizations'],
        body: FoldersBody(services.limits),
        response: answers(FoldersResult, [404]),
      },
    },
    (request) =>
      then(updateFolders(services, tenantOf(request), request.body.data), (data) =>
        success('Folder Updated successfully.', data),
      ),
  );
}
