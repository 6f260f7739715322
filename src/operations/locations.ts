// A location of a document: its threads and notifications moved, or deleted.
import { operation } from './operation.js';
import { CONTRACT } from '../schemas/operations/index.js';
import { deleteLocationData, moveLocation } from '../services/locations.js';

/** A location of a document: its threads and notifications moved, or deleted. */
export const locations = [
  operation(CONTRACT.locationsUpdate, {
    // As the original service's page shows: the credentials may also come as data.apiKey and data.authToken.
    config: { credentialsInBody: true },
    run: moveLocation,
    answer: 'Location updated.',
  }),
  operation(CONTRACT.locationDataDelete, {
    // As the original service's page shows: the credentials may also come as data.apiKey and data.authToken.
    config: { credentialsInBody: true },
    run: deleteLocationData,
    answer: 'Data deleted successfully.',
  }),
];
