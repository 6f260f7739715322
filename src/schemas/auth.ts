// The request data of end-user tokens (docs/api.md, "POST /v1/auth/token/get"): auth/token/get.
import Type from 'typebox';
import { BodyCredentials, Email, Id, Name, Opt, RequestBody, type DataOf, type InputLimits } from './common.js';

/** auth/token/get. */
export const AuthTokenBody = (_limits: InputLimits) =>
  RequestBody(
    Type.Object({
      userId: Id,
      userProperties: Type.Object({
        organizationId: Id,
        email: Opt(Email),
        name: Opt(Name),
        isAdmin: Opt(Type.Boolean()),
      }),
      ...BodyCredentials,
    }),
  );
export type AuthTokenData = DataOf<typeof AuthTokenBody>;
