import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { FoldersBody } from '../schemas/folders.js';
import { answers, FoldersResult } from '../schemas/responses.js';
import type { Services } from '../services/context.js';
import { addFolders } from '../services/folders.js';

export const path = '/v1/organizations/folders/add';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: 'Create folders under a parent that exists, or at the top (SPEC 12)',
        tags: ['organizations'],
        body: FoldersBody(services.limits),
        response: answers(FoldersResult, [404]),
      },
    },
    (request) =>
      then(addFolders(services, tenantOf(request), request.body.data), (data) => success('Folder created successfully.', data)),
  );
}
