// The request data and answer of search/get (docs/api.md, "search/get").
import Type from 'typebox';
import { type DataOf, Filter, Id, type InputLimits, MAX_PAGE_SIZE, Millis, Opt, RequestBody } from './common.js';
import { Success } from './responses.js';

/** The longest query the schema takes; MARGINALIA_SEARCH_MAX_QUERY_LENGTH may narrow it (services/search.ts). */
export const MAX_SEARCH_QUERY_LENGTH = 1000;

const Kind = Type.Union([Type.Literal('comment'), Type.Literal('notification')]);

export const SearchGetBody = (limits: InputLimits) =>
  RequestBody(
    Type.Object({
      organizationId: Id,
      query: Type.String({
        minLength: 1,
        maxLength: MAX_SEARCH_QUERY_LENGTH,
        description:
          'Plain words: a hit has every word at the start of one of its words, accents and case aside. Anything ' +
          'but letters and digits separates words (quotes, stars, parentheses, colons are no operators). At most ' +
          'MARGINALIA_SEARCH_MAX_QUERY_LENGTH characters',
      }),
      kinds: Opt(Type.Array(Kind, { minItems: 1, maxItems: 2, description: 'What to search; absent: both' })),
      documentIds: Filter(limits, Id),
      folderIds: Filter(limits, { ...Id, description: 'Documents in these folders or any folder below them' }),
      userIds: Filter(limits, { ...Id, description: "Authors: a comment's from, a notification's actionUser" }),
      recipientUserId: Opt({
        ...Id,
        description: "Only the notifications in this user's inbox (an end-user token: its own user's, always)",
      }),
      createdAfter: Opt({ ...Millis, description: "Hits at or after this time (a comment's createdAt, a notification's)" }),
      createdBefore: Opt({ ...Millis, description: 'Hits at or before this time' }),
      pageSize: Opt(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, description: 'At most MARGINALIA_SEARCH_MAX_PAGE_SIZE' })),
      pageToken: Opt(Type.String({ maxLength: 1024 })),
    }),
  );

export type SearchGetData = DataOf<typeof SearchGetBody>;

const Hit = Type.Object({
  kind: Kind,
  documentId: Type.Union([Type.String(), Type.Null()]),
  annotationId: Type.Optional(Type.String()),
  commentId: Type.Optional(Type.Integer()),
  notificationId: Type.Optional(Type.String()),
  userId: Type.String({ description: "The author: a comment's from.userId, a notification's actionUser.userId" }),
  time: Type.Integer({ description: "A comment's createdAt, a notification's timestamp (ms)" }),
  snippet: Type.String({
    description: 'HTML: the text around the matches, HTML-escaped, each matched word in <mark>...</mark>; … where cut',
  }),
});

export const SearchGetResult = Success(Type.Array(Hit), {
  nextPageToken: Type.Optional(Type.String({ description: 'Present when more hits remain' })),
});
