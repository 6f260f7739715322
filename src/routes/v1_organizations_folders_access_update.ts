import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { FoldersAccessBody } from '../schemas/folders.js';
import { answers, AccessResult } from '../schemas/responses.js';
import type { Services } from '../services/context.js';
import { setFolderAccess } from '../services/folders.js';

export const path = '/v1/organizations/folders/access/update';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: "Set folders' access type (SPEC 12)",
        tags: ['organizations'],
        body: FoldersAccessBody(services.limits),
        response: answers(AccessResult),
      },
    },
    (request) =>
      then(setFolderAccess(services, tenantOf(request), request.body.data), (data) =>
        success('Updated access for folders successfully.', data),
      ),
  );
}
