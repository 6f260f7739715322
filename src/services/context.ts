// What every operation needs besides its input: the store and the clock, passed in (no globals).
import type { Clock } from '../clock.js';
import type { Store, Tenant } from '../store/store.js';

export interface Services {
  store: Store;
  clock: Clock;
}

export type Caller = Pick<Tenant, 'id' | 'apiKey'>;
