// Building blocks of the request schemas (SPEC 4). The schemas validate requests, type the handlers
// and will describe the API; a limit is written here once.
import Type, { type TSchema } from 'typebox';

/** Largest number of entries in any array of a request (SPEC 4). */
export const MAX_BATCH = 1000;
export const MAX_COMMENT_ID = 2_147_483_647;

/** SPEC 1: null for an optional member means absent. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
export const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

export const Id = Type.String({ minLength: 1, maxLength: 256 });
export const Name = Type.String({ maxLength: 256 });
export const Email = Type.String({
  maxLength: 254,
  pattern: '^$|^[^\\s@]+@[^\\s@]+$',
  description: 'empty or an email address (x@y)',
});
export const PhotoUrl = Type.String({ maxLength: 2048 });
export const CommentId = Type.Integer({ minimum: 1, maximum: MAX_COMMENT_ID });
export const NotificationId = Type.String({
  pattern: '^[A-Za-z0-9_-]{1,128}$',
  description: '1 to 128 of A-Z a-z 0-9 _ -',
});
/** A free-form JSON object kept as sent. */
export const FreeObject = Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true });

export const Batch = <T extends TSchema>(item: T, minItems = 1) => Type.Array(item, { minItems, maxItems: MAX_BATCH });
/** A filter list: empty means no filter (SPEC 1). */
export const Filter = <T extends TSchema>(item: T) => Opt(Type.Array(item, { maxItems: MAX_BATCH }));

/** A user as written by a caller: only userId is required. */
export const UserRefIn = Type.Object({ userId: Id, name: Opt(Name), email: Opt(Email) });

/** The request envelope: `{ "data": { ... } }`; other top-level members are ignored. */
export const RequestBody = <T extends TSchema>(data: T) => Type.Object({ data });
