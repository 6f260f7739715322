// The request data of organizations as objects (docs/api.md, "Organizations").
import Type from 'typebox';
import { Batch, Filter, GIVEN_TIMES, Id, PAGING, Name, Opt, RequestBody, type DataOf, type InputLimits } from './common.js';

const OrganizationIn = Type.Object({ organizationId: Id, organizationName: Opt(Name) });

/** organizations/update. */
export const OrganizationsBody = (limits: InputLimits) =>
  RequestBody(Type.Object({ organizations: Batch(limits, OrganizationIn) }));
export type OrganizationsData = DataOf<typeof OrganizationsBody>;

/** organizations/add: as update, and the times a new organization keeps. */
export const OrganizationsAddBody = (limits: InputLimits) =>
  RequestBody(Type.Object({ organizations: Batch(limits, Type.Object({ ...OrganizationIn.properties, ...GIVEN_TIMES })) }));
export type OrganizationsAddData = DataOf<typeof OrganizationsAddBody>;

export const OrganizationsGetBody = (limits: InputLimits) =>
  RequestBody(
    Type.Object({
      // None: every organization of the tenant.
      organizationIds: Filter(limits, Id),
      ...PAGING,
    }),
  );
export type OrganizationsGetData = DataOf<typeof OrganizationsGetBody>;

/** organizations/delete. */
export const OrganizationIdsBody = (limits: InputLimits) => RequestBody(Type.Object({ organizationIds: Batch(limits, Id) }));
export type OrganizationIdsData = DataOf<typeof OrganizationIdsBody>;

/** organizations/access/disablestate/update. */
export const OrganizationsDisableBody = (limits: InputLimits) =>
  RequestBody(Type.Object({ organizationIds: Batch(limits, Id), disabled: Type.Boolean() }));
export type OrganizationsDisableData = DataOf<typeof OrganizationsDisableBody>;
