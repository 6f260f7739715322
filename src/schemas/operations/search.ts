// Full-text search (an extension, /v1 and /v2 alike; docs/api.md, "search/get").
import { SearchGetBody, SearchGetResult } from '../search.js';
import { contract } from './contract.js';

const tags = ['search'] as const;

export const search = {
  searchGet: contract({
    paths: { v1: 'search/get', v2: 'search/get' },
    summary: "Search the text of an organization's comments and notifications, best hits first",
    description:
      'Ranked full-text search with a highlighted snippet per hit, paged with pageToken. An end-user token searches the ' +
      'comments of the documents it names (documentIds, each one it may read) and the notifications in its own inbox.',
    tags,
    body: SearchGetBody,
    example: { organizationId: 'acme', query: 'quarterly', kinds: ['comment'] },
    result: SearchGetResult,
  }),
};
