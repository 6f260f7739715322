// The tenant a console path names by its id: the pages act as that tenant (the services' caller), as its API key would.
import { ApiError } from '../errors.js';
import type { Tenant } from '../domain/credentials.js';
import type { Store } from '../store/store.js';

export async function tenantById(store: Store, tenantId: string): Promise<Tenant> {
  const tenant = (await store.listTenants()).find((t) => t.id === tenantId);
  if (!tenant) throw new ApiError('NOT_FOUND', `No tenant ${tenantId}.`);
  return tenant;
}
