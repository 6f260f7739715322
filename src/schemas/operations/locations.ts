// A location of a document: its threads and notifications moved, or deleted.
import { LocationDataDeleteBody, LocationsUpdateBody } from '../locations.js';
import { LocationResult } from '../responses.js';
import { contract } from './contract.js';

export const locations = {
  locationsUpdate: contract({
    paths: { v1: 'organizations/documents/locations/update', v2: 'organizations/documents/locations/update' },
    summary: "Move a location's threads and notifications to another location, or change its object",
    description:
      "Every thread of the document at `migrate.oldLocation` (by its locationId or its location object's id) shows " +
      '`newLocation` (merged over its own location object with `merge: true`, replacing it otherwise), and takes ' +
      "`newLocation.id` as its locationId where it had one; the document's notifications at the old id take the new " +
      'one. Without `organizationId`: a document without an organization. Credentials may come as `data.apiKey` and ' +
      '`data.authToken` when both headers are absent (wrong ones: 400 `Auth token not found.`).',
    tags: ['comments'],
    body: LocationsUpdateBody,
    example: {
      documentId: 'spec',
      migrate: {
        oldLocation: { id: 'scene_1', locationName: 'Untitled scene' },
        newLocation: { id: 'scene_1', locationName: 'White scene' },
      },
      merge: true,
    },
    result: LocationResult,
  }),
  locationDataDelete: contract({
    paths: { v1: 'organizations/documents/locations/data/delete', v2: 'organizations/documents/locations/data/delete' },
    summary: "Delete a location's threads (with their comments and read marks) and notifications",
    description:
      "The document's threads at `location` (by their locationId or their location object's id) go with their " +
      'comments and read marks, and its notifications at that id, for everyone. Without `organizationId`: a document ' +
      'without an organization. Credentials may come as `data.apiKey` and `data.authToken` when both headers are ' +
      'absent (wrong ones: 400 `Auth token not found.`).',
    tags: ['comments'],
    body: LocationDataDeleteBody,
    example: { organizationId: 'acme', documentId: 'spec', location: { id: 'scene_1' } },
    result: LocationResult,
  }),
};
