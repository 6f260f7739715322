// The request data of the location operations (organizations/documents/locations/*), as the original
// service's pages show them; credentials may also come in data (http/auth.ts, credentialsInBody).
import Type from 'typebox';
import { BodyCredentials, Id, OrganizationOrNone, Opt, RequestBody, type DataOf } from './common.js';

/** A location: an object with a string `id`; its other members are the caller's, kept as sent. */
export const Location = Type.Unsafe<{ id: string; [member: string]: unknown }>(
  Type.Object({ id: Id }, { additionalProperties: true, description: 'A location object: its id, and any members of yours' }),
);

/** organizations/documents/locations/update. */
export const LocationsUpdateBody = () =>
  RequestBody(
    Type.Object({
      ...BodyCredentials,
      organizationId: OrganizationOrNone,
      documentId: Id,
      migrate: Type.Object({ oldLocation: Location, newLocation: Location }),
      merge: Opt(
        Type.Boolean({
          description: "true: newLocation's members merged over each thread's location; false (default): it replaces it",
        }),
      ),
    }),
  );
export type LocationsUpdateData = DataOf<typeof LocationsUpdateBody>;

/** organizations/documents/locations/data/delete. */
export const LocationDataDeleteBody = () =>
  RequestBody(Type.Object({ ...BodyCredentials, organizationId: OrganizationOrNone, documentId: Id, location: Location }));
export type LocationDataDeleteData = DataOf<typeof LocationDataDeleteBody>;
