import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { FoldersGetBody } from '../schemas/folders.js';
import { answers, FolderListResult } from '../schemas/responses.js';
import type { Services } from '../services/context.js';
import { getFolders } from '../services/folders.js';

export const path = '/v1/organizations/folders/get';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: 'Every folder of an organization, flat; or one folder with its whole subtree (SPEC 12)',
        tags: ['organizations'],
        body: FoldersGetBody(),
        response: answers(FolderListResult),
      },
    },
    (request) =>
      then(getFolders(services, tenantOf(request), request.body.data), (data) =>
        success('Folders retrieved successfully.', data),
      ),
  );
}
