import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { LocationsUpdateBody } from '../schemas/locations.js';
import { answers, LocationResult } from '../schemas/responses.js';
import type { Services } from '../services/context.js';
import { moveLocation } from '../services/locations.js';

export const path = '/v1/organizations/documents/locations/update';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      // As the original service's page shows: the credentials may also come as data.apiKey and data.authToken.
      config: { credentialsInBody: true },
      schema: {
        summary: "Move a location's threads and notifications to another location, or change its object",
        description:
          "Every thread of the document at `migrate.oldLocation` (by its locationId or its location object's id) shows " +
          '`newLocation` (merged over its own location object with `merge: true`, replacing it otherwise), and takes ' +
          "`newLocation.id` as its locationId where it had one; the document's notifications at the old id take the new " +
          'one. Without `organizationId`: a document without an organization. Credentials may come as `data.apiKey` and ' +
          '`data.authToken` when both headers are absent (wrong ones: 400 `Auth token not found.`).',
        tags: ['comments'],
        body: LocationsUpdateBody(),
        response: answers(LocationResult),
      },
    },
    (request) => then(moveLocation(services, tenantOf(request), request.body.data), (data) => success('Location updated.', data)),
  );
}
