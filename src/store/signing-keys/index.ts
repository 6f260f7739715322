// Each tenant's key for signing end-user tokens.
// This feature's part of the Store (store.ts): each method runs its store code through the core.
import type { SigningKey } from '../../domain/credentials.js';
import type { Maybe } from '../../maybe.js';
import type { StoreCore } from '../core.js';
import * as signingKeys from './signing-keys.js';

export const signingKeysStore = (core: StoreCore) => ({
  /** The tenant's end-user token signing key, null when it has none yet. */
  findSigningKey(tenantId: string): Maybe<SigningKey | null> {
    return core.read('findSigningKey', () => signingKeys.find(tenantId));
  },

  /** Stores `candidate` as the tenant's signing key unless it has one; answers the key it has. */
  ensureSigningKey(tenantId: string, candidate: SigningKey): Maybe<SigningKey> {
    return core.write('ensureSigningKey', () => signingKeys.ensure(tenantId, candidate));
  },

  /** Puts `key` in place of the tenant's signing key (an operator's rotation); false when it has none. */
  replaceSigningKey(tenantId: string, key: SigningKey): Maybe<boolean> {
    return core.write('replaceSigningKey', () => signingKeys.replace(tenantId, key));
  },
});

export type SigningKeysStore = ReturnType<typeof signingKeysStore>;
