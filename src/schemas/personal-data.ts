// The request data of the personal-data operations (docs/api.md, "POST /v1/users/data/get"): a user's data read,
// and erased.
import Type from 'typebox';
import { Filter, Id, MAX_ID_LENGTH, Opt, RequestBody, type DataOf, type InputLimits } from './common.js';

/** users/data/get. */
export const UserDataGetBody = (_limits: InputLimits) =>
  RequestBody(Type.Object({ organizationId: Id, userId: Id, pageToken: Opt(Type.String({ maxLength: 2048 })) }));
export type UserDataGetData = DataOf<typeof UserDataGetBody>;

/** users/data/delete: organizationIds none (or empty) means every organization of the tenant. */
export const UserDataDeleteBody = (limits: InputLimits) =>
  RequestBody(
    Type.Object({
      userIds: Type.Array(Id, { minItems: 1, maxItems: limits.maxBatch }),
      organizationIds: Filter(limits, Id),
    }),
  );
export type UserDataDeleteData = DataOf<typeof UserDataDeleteBody>;

/** users/data/delete/status. */
export const UserDataStatusBody = (_limits: InputLimits) =>
  RequestBody(Type.Object({ jobId: Type.String({ minLength: 1, maxLength: MAX_ID_LENGTH }) }));
export type UserDataStatusData = DataOf<typeof UserDataStatusBody>;
