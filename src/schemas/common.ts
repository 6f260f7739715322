// Building blocks of the request schemas (docs/api.md, "Identifiers and limits"). The schemas validate requests,
// type the handlers and will describe the API; a limit is written here once. The limits an operator may tighten or
// widen (InputLimits, from config) shape the schemas when the app is built; the rest are the
// contract's own (id, name, email and URL lengths, comment ids, page sizes).
import Type, { type Static, type TSchema } from 'typebox';

export interface InputLimits {
  /**
   * Most entries in any array of a request (MARGINALIA_MAX_BATCH; at least 1000, docs/api.md,
   * "Identifiers and limits").
   */
  maxBatch: number;
  /** Longest free text (comment text and HTML, headline template, body message), in code points. */
  maxTextLength: number;
  /** Most settings (config/set: documentIds times userIds) or read marks (notifications/update) one request writes. */
  maxMarksPerRequest: number;
}

export const DEFAULT_LIMITS: InputLimits = { maxBatch: 1000, maxTextLength: 100_000, maxMarksPerRequest: 10_000 };

export const MAX_COMMENT_ID = 2_147_483_647;
/** pageSize is 1 to 1000 whatever the batch limit (docs/api.md, "Paging"). */
export const MAX_PAGE_SIZE = 1000;

/** The longest thread color (a CSS color needs far fewer). */
export const MAX_COLOR_LENGTH = 256;

/** A comment tags at most this many users (docs/api.md, "Comment HTML"). */
export const MAX_TAGGED_CONTACTS = 100;
/** The latest time a Date can show (8.64e15 ms): times past it could not be written as ISO 8601. */
export const MAX_TIME = 8_640_000_000_000_000;

/** Null for an optional member means absent (docs/api.md, "Wire format"). */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
export const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

/** A paged read's request fields (docs/api.md, "Paging"), spread into its body: how many, and after which token. */
export const PAGING = {
  pageSize: Opt(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE })),
  pageToken: Opt(Type.String({ maxLength: 1024 })),
};

/** The longest id (docs/api.md, "Wire format"). */
export const MAX_ID_LENGTH = 256;
export const Id = Type.String({ minLength: 1, maxLength: MAX_ID_LENGTH });

/**
 * Where documents without an organization live (docs/decisions.md): the organizationId no request can
 * name (ids are 1 to 256 characters), so they are kept apart from every named organization. Answers
 * and events leave their organizationId out.
 */
export const NO_ORGANIZATION = '';

/**
 * The organization of the documents an operation means; absent: the tenant's documents without an
 * organization (the original service's pages; docs/decisions.md).
 */
export const OrganizationOrNone = Opt(
  Type.String({
    minLength: 1,
    maxLength: MAX_ID_LENGTH,
    description: "Absent: the tenant's documents without an organization, kept apart from every organization",
  }),
);

/** The organization an operation's data means: its organizationId, or none (NO_ORGANIZATION). */
export const organizationOf = (data: { organizationId?: string | null }): string => data.organizationId ?? NO_ORGANIZATION;
export const Name = Type.String({ maxLength: 256 });
/**
 * Any string of at most 254 characters: the original service validates emails lightly and imported
 * data must go in (docs/decisions.md). A value not shaped like an address is kept and shown, never mailed.
 */
export const Email = Type.String({ maxLength: 254, description: 'At most 254 characters; kept as sent' });
/** The longest URL a member may hold (photoUrl, an agent's url). */
export const MAX_URL_LENGTH = 2048;
export const PhotoUrl = Type.String({ maxLength: MAX_URL_LENGTH });
export const CommentId = Type.Integer({ minimum: 1, maximum: MAX_COMMENT_ID });
export const NotificationId = Type.String({
  pattern: '^[A-Za-z0-9_-]{1,128}$',
  description: '1 to 128 of A-Z a-z 0-9 _ -',
});
/** A free-form JSON object kept as sent. */
export const FreeObject = Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true });

export const Batch = <T extends TSchema>(limits: InputLimits, item: T) =>
  Type.Array(item, { minItems: 1, maxItems: limits.maxBatch });
/** A filter list: empty means no filter (docs/api.md, "Wire format"). */
export const Filter = <T extends TSchema>(limits: InputLimits, item: T) => Opt(Type.Array(item, { maxItems: limits.maxBatch }));
/** Free text a caller writes and readers see. */
export const Text = (limits: InputLimits) => Type.String({ maxLength: limits.maxTextLength });

/** A user as written by a caller: only userId is required. */
export const UserRefIn = Type.Object({ userId: Id, name: Opt(Name), email: Opt(Email) });

/**
 * A time a caller gives (an import keeps its history, docs/api.md "What an import keeps"): integer milliseconds
 * since the epoch.
 */
export const Millis = Type.Integer({ minimum: 0, maximum: MAX_TIME, description: 'Milliseconds since the Unix epoch' });

/**
 * organizations/add, folders/add and documents/add: the times a record they create is stored with (docs/api.md,
 * "What an import keeps"), as a thread's and a comment's; one that exists keeps its own.
 */
export const GIVEN_TIMES = { createdAt: Opt(Millis), lastUpdated: Opt(Millis) };

/**
 * Users a comment tags (docs/api.md, "What a thread reads as"): each with the caller's text for the tag and a contact, a
 * user resolved at read time.
 */
export const TaggedUserContacts = (limits: InputLimits) =>
  Type.Array(Type.Object({ userId: Id, text: Opt(Text(limits)), contact: Opt(UserRefIn) }), { maxItems: MAX_TAGGED_CONTACTS });

/**
 * Credentials given in `data`, as the original service's pages for auth/token/get and the location
 * operations show them: read when both credential headers are absent (http/auth.ts), never stored.
 */
export const BodyCredentials = {
  apiKey: Type.Optional(
    Type.String({
      maxLength: 1024,
      description: 'The API key, when the x-service-api-key and x-service-auth-token headers are both absent',
    }),
  ),
  authToken: Type.Optional(
    Type.String({ maxLength: 1024, description: 'An auth token of the key, when both credential headers are absent' }),
  ),
};

/** The request envelope: `{ "data": { ... } }`; other top-level members are ignored. */
export const RequestBody = <T extends TSchema>(data: T) => Type.Object({ data });

/** The `data` member an operation takes, from its request-body schema factory: the type services and the client share. */
export type DataOf<F extends (...args: never[]) => TSchema> = Static<ReturnType<F>> extends { data: infer D } ? D : never;

/** The order of a paged read by time (/v2's `order`): newest first unless "asc". */
export const Order = Type.Union([Type.Literal('asc'), Type.Literal('desc')], {
  description: 'By time: "desc" (newest first, the default) or "asc"',
});
