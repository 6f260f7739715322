// Full-text search (an extension on /v1 and /v2; docs/api.md, "search/get"): server credentials, and end users
// within their documents and their own inbox (services/end-user-rules.ts).
import { success } from '../http/envelope.js';
import { CONTRACT } from '../schemas/operations/index.js';
import * as endUsers from '../services/end-user-rules.js';
import { type SearchAnswer, searchText } from '../services/search.js';
import { nextPageTokenOf, operation } from './operation.js';

export const SEARCH_FOUND = 'Search results fetched successfully.';

export const search = [
  operation(CONTRACT.searchGet, {
    run: searchText,
    endUser: endUsers.searchGet,
    answer: (out: SearchAnswer) => success(SEARCH_FOUND, out.hits, nextPageTokenOf(out.nextPageToken)),
  }),
];
