import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { LocationDataDeleteBody } from '../schemas/locations.js';
import { answers, LocationResult } from '../schemas/responses.js';
import type { Services } from '../services/context.js';
import { deleteLocationData } from '../services/locations.js';

export const path = '/v1/organizations/documents/locations/data/delete';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      // As the original service's page shows: the credentials may also come as data.apiKey and data.authToken.
      config: { credentialsInBody: true },
      schema: {
        summary: "Delete a location's threads (with their comments and read marks) and notifications",
        description:
          "The document's threads at `location` (by their locationId or their location object's id) go with their " +
          'comments and read marks, and its notifications at that id, for everyone. Without `organizationId`: a document ' +
          'without an organization. Credentials may come as `data.apiKey` and `data.authToken` when both headers are ' +
          'absent (wrong ones: 400 `Auth token not found.`).',
        tags: ['comments'],
        body: LocationDataDeleteBody(),
        response: answers(LocationResult),
      },
    },
    (request) =>
      then(deleteLocationData(services, tenantOf(request), request.body.data), (data) =>
        success('Data deleted successfully.', data),
      ),
  );
}
