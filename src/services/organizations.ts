// Organizations as objects (docs/api.md, "Organizations"): organizations/add, get and update.
import { shownOrganization } from '../domain/answers/objects.js';
import { type Maybe, then } from '../maybe.js';
import type { Static } from 'typebox';
import type {
  OrganizationIdsData,
  OrganizationsAddData,
  OrganizationsData,
  OrganizationsDisableData,
  OrganizationsGetData,
} from '../schemas/organizations.js';
import type { Organization } from '../schemas/responses.js';
import type { OrganizationWrite } from '../domain/organizations.js';
import type { Caller, Services } from './context.js';
import { internalOrganizationId } from '../domain/ids.js';
import { asSet, filterDigest, keyPaged } from './page-token.js';
import { filterList, givenTimes, keyedOutcomes, orNull, requireUnique } from './rules.js';

const writes = (input: OrganizationsData | OrganizationsAddData): OrganizationWrite[] => {
  requireUnique(input.organizations, (o) => o.organizationId, ['organizations'], 'organizationId');
  return input.organizations.map((o) => ({ organizationId: o.organizationId, name: orNull(o.organizationName) }));
};

/**
 * organizations/add: creates each organization, with the times given (docs/api.md, "What an import keeps"), or renames
 * it when given a name.
 */
export function addOrganizations({ store, clock }: Services, caller: Caller, input: OrganizationsAddData) {
  const entries = writes(input).map((e, i) => ({ ...e, ...givenTimes(input.organizations[i]!) }));
  return then(store.addOrganizations(caller.id, entries, clock()), () =>
    Object.fromEntries(
      entries.map(({ organizationId: id }) => [
        id,
        { success: true, id: internalOrganizationId(caller.id, id), message: 'Added Successfully' },
      ]),
    ),
  );
}

/** organizations/update: renames those that exist; the others are answered as not existing. */
export function updateOrganizations({ store, clock }: Services, caller: Caller, input: OrganizationsData) {
  const entries = writes(input);
  return then(store.updateOrganizations(caller.id, entries, clock()), (updated) =>
    keyedOutcomes(
      entries.map((e) => e.organizationId),
      [...updated],
      (id, success) => ({
        success,
        id: internalOrganizationId(caller.id, id),
        message: success ? 'Updated Successfully' : DOES_NOT_EXIST,
      }),
    ),
  );
}

/** The per-item message of an organization that does not exist (the original service's pages). */
const DOES_NOT_EXIST = 'Organization does not exist';

export interface OrganizationPage {
  organizations: Static<typeof Organization>[];
  nextPageToken: string | null;
}

/** organizations/get: by id or all, in id order, paged; unknown ids are left out. */
export function getOrganizations({ store }: Services, caller: Caller, input: OrganizationsGetData): Maybe<OrganizationPage> {
  const ids = filterList(input.organizationIds);
  const digest = filterDigest(['organizations/get', asSet(ids)]);
  const read = (after: string | null, limit: number) => store.getOrganizations(caller.id, ids, after, limit);
  return then(
    keyPaged(input, digest, read, (o) => o.organizationId),
    ({ page, nextPageToken }) => ({
      organizations: page.map(shownOrganization),
      nextPageToken,
    }),
  );
}

/**
 * organizations/access/disablestate/update: those that exist take the state; a missing one is answered
 * as not existing and is not created (the original service's page; docs/decisions.md).
 */
export function setOrganizationsDisabled({ store, clock }: Services, caller: Caller, input: OrganizationsDisableData) {
  // A repeated id is the same request twice: answered once (the answer is keyed by id).
  const ids = [...new Set(input.organizationIds)];
  const { disabled } = input;
  return then(store.setOrganizationsDisabled(caller.id, ids, disabled, clock()), (found) =>
    keyedOutcomes(ids, [...found], (id, success) => {
      const internal = internalOrganizationId(caller.id, id);
      return success
        ? { success, id: internal, disabled, message: 'Updated disable state for organization Successfully' }
        : { success, id: internal, message: DOES_NOT_EXIST };
    }),
  );
}

/** organizations/delete: everything in each organization goes; the others are answered as not existing. */
export function deleteOrganizations({ store, clock }: Services, caller: Caller, input: OrganizationIdsData) {
  const ids = [...new Set(input.organizationIds)];
  return then(store.deleteOrganizations(caller.id, ids, clock()), (deleted) =>
    keyedOutcomes(ids, [...deleted], (id, success) => ({
      success,
      id: internalOrganizationId(caller.id, id),
      message: success ? 'Deleted Successfully' : DOES_NOT_EXIST,
    })),
  );
}
