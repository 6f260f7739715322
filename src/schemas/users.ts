// The request data shared by users/add and users/update (SPEC 5).
import Type from 'typebox';
import { Batch, Email, Id, Name, Opt, PhotoUrl, RequestBody, type InputLimits, type DataOf } from './common.js';

export const UserIn = Type.Object({ userId: Id, name: Opt(Name), email: Opt(Email), photoUrl: Opt(PhotoUrl) });

export const UsersBody = (limits: InputLimits) =>
  RequestBody(
    Type.Object({
      organizationId: Id,
      documentId: Opt(Id),
      folderId: Opt(Id),
      users: Batch(limits, UserIn),
    }),
  );

export type UsersData = DataOf<typeof UsersBody>;
