// The location operations (the original service's organizations/documents/locations/*): a location's
// threads and notifications moved to another location (or its object renamed), or deleted.
import { type Maybe, then } from '../maybe.js';
import { organizationOf } from '../schemas/common.js';
import type { LocationDataDeleteData, LocationsUpdateData } from '../schemas/locations.js';
import type { Caller, Services } from './context.js';

/** locations/update: answers null, as the original service's page shows. */
export function moveLocation({ store, clock, bodyLimit }: Services, caller: Caller, input: LocationsUpdateData): Maybe<null> {
  const { oldLocation, newLocation } = input.migrate;
  const move = { from: oldLocation, to: newLocation, merge: input.merge === true, mostBytes: bodyLimit };
  return then(store.moveLocation(caller.id, organizationOf(input), input.documentId, move, clock()), () => null);
}

/** locations/data/delete: answers null, as the original service's page shows. */
export function deleteLocationData({ store, clock }: Services, caller: Caller, input: LocationDataDeleteData): Maybe<null> {
  const removed = store.deleteLocationData(caller.id, organizationOf(input), input.documentId, input.location.id, clock());
  return then(removed, () => null);
}
