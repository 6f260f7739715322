// Full-text search (docs/api.md, "search/get"). This feature's part of the Store (store.ts).
import type { FoundText, TextSearch } from '../../domain/search.js';
import type { Maybe } from '../../maybe.js';
import type { StoreCore } from '../core.js';
import { search } from './search.js';

export const searchStore = (core: StoreCore) => ({
  /** The hits of a search, best first: a page of them (offset, limit). */
  searchText(tenantId: string, q: TextSearch): Maybe<FoundText[]> {
    return core.query('searchText', search(tenantId, q));
  },
});

export type SearchStore = ReturnType<typeof searchStore>;
