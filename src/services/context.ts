// What every operation needs besides its input: the store and the clock, passed in (no globals).
import type { Clock } from '../clock.js';
import type { InputLimits } from '../schemas/common.js';
import type { Store, Tenant } from '../store/store.js';

export interface Services {
  store: Store;
  clock: Clock;
  /** The configured input limits the request schemas are built with. */
  limits: InputLimits;
}

export type Caller = Pick<Tenant, 'id' | 'apiKey'>;
