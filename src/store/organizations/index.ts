// Organizations as objects.
// This feature's part of the Store (store.ts): each method runs its store code through the core.
import type { OrganizationRecord, OrganizationWrite } from '../../domain/organizations.js';
import type { Maybe } from '../../maybe.js';
import type { StoreCore } from '../core.js';
import { organizationsDeleted, organizationsWritten } from './events.js';
import * as organizations from './organizations.js';
import { ORGANIZATION_TABLES } from './sql.js';
import { idsInKeyOrder } from '../sql.js';

export const organizationsStore = (core: StoreCore) => ({
  /** organizations/add: creates each one, or renames it when a name is given. */
  addOrganizations(tenantId: string, entries: readonly OrganizationWrite[], now: number): Maybe<void> {
    const ids = entries.map((e) => e.organizationId);
    return core.emitting(
      'addOrganizations',
      tenantId,
      now,
      () => organizations.add(tenantId, entries, now),
      () => organizationsWritten('organization.add', tenantId, ids),
    );
  },

  /** organizations/update: renames those that exist; answers which did. */
  updateOrganizations(tenantId: string, entries: readonly OrganizationWrite[], now: number): Maybe<Set<string>> {
    const ids = entries.map((e) => e.organizationId);
    return core.emitting(
      'updateOrganizations',
      tenantId,
      now,
      () => organizations.update(tenantId, entries, now),
      (updated) =>
        organizationsWritten(
          'organization.update',
          tenantId,
          ids.filter((id) => updated.has(id)),
        ),
    );
  },

  /** organizations/access/disablestate/update: those that exist take the state; answers which did. */
  setOrganizationsDisabled(
    tenantId: string,
    organizationIds: readonly string[],
    disabled: boolean,
    now: number,
  ): Maybe<Set<string>> {
    return core.emitting(
      'setOrganizationsDisabled',
      tenantId,
      now,
      () => organizations.setDisabled(tenantId, organizationIds, disabled, now),
      (found) =>
        organizationsWritten(
          'organization.update',
          tenantId,
          organizationIds.filter((id) => found.has(id)),
        ),
    );
  },

  /**
   * organizations/delete: everything in each. Each organization in three parts (organizations.ts):
   * marked deleting, its rows a batch at a time (inBatches), then the row with its organization.delete
   * event. Answers those that existed.
   */
  async deleteOrganizations(tenantId: string, organizationIds: readonly string[], now: number): Promise<Set<string>> {
    const deleted = new Set<string>();
    for (const organizationId of idsInKeyOrder(organizationIds)) {
      if (!(await core.write('markOrganizationDeleting', () => organizations.markDeleting(tenantId, organizationId)))) continue;
      deleted.add(organizationId);
      for (const table of ORGANIZATION_TABLES) {
        await core.inBatches('deleteOrganizations', core.options.mostRowsPerBatch, (_, limit) =>
          organizations.deleteSome(table, tenantId, organizationId, limit),
        );
      }
      await core.emitting(
        'deleteOrganizations',
        tenantId,
        now,
        () => organizations.finishDeletion(tenantId, organizationId),
        // A deletion beside this one may have deleted the row (and told of it) first.
        (gone) => (gone ? organizationsDeleted([organizationId]) : []),
      );
    }
    return deleted;
  },

  /** organizations/get: up to `limit` after the id `after`, by id (null: all), in id order. */
  getOrganizations(tenantId: string, ids: string[] | null, after: string | null, limit: number): Maybe<OrganizationRecord[]> {
    return core.read('getOrganizations', () => organizations.page(tenantId, ids, after, limit));
  },
});

export type OrganizationsStore = ReturnType<typeof organizationsStore>;
