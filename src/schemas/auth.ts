// The request data of end-user tokens (SPEC 13): auth/token/get.
import Type from 'typebox';
import { Email, Id, Name, Opt, RequestBody, type DataOf, type InputLimits } from './common.js';

/** A credential given in the body (auth/token/get only, when both headers are absent; SPEC 13). */
const BodyCredential = (description: string) => Type.Optional(Type.String({ maxLength: 1024, description }));

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
      apiKey: BodyCredential('The API key, when the x-service-api-key and x-service-auth-token headers are both absent'),
      authToken: BodyCredential('An auth token of the key, when both credential headers are absent'),
    }),
  );
export type AuthTokenData = DataOf<typeof AuthTokenBody>;
