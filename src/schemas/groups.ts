// The request data of organization user groups (docs/api.md, "POST /v1/organizations/usergroups/add").
import Type from 'typebox';
import { Batch, Id, PAGING, Name, Opt, RequestBody, type DataOf, type InputLimits } from './common.js';

const GroupIn = Type.Object({ groupId: Id, groupName: Opt(Name) });

/** organizations/usergroups/add. */
export const UserGroupsAddBody = (limits: InputLimits) =>
  RequestBody(Type.Object({ organizationId: Id, organizationUserGroups: Batch(limits, GroupIn) }));
export type UserGroupsAddData = DataOf<typeof UserGroupsAddBody>;

/**
 * organizations/usergroups/users/add. docs/api.md "POST /v1/organizations/usergroups/users/add":
 * organizationUserGroupId is the caller's groupId.
 */
export const GroupUsersAddBody = (limits: InputLimits) =>
  RequestBody(Type.Object({ organizationId: Id, organizationUserGroupId: Id, userIds: Batch(limits, Id) }));
export type GroupUsersAddData = DataOf<typeof GroupUsersAddBody>;

/** organizations/usergroups/users/delete: the listed users, or with deleteAll every one. */
export const GroupUsersDeleteBody = (limits: InputLimits) =>
  RequestBody(
    Type.Object({
      organizationId: Id,
      organizationUserGroupId: Id,
      userIds: Opt(Type.Array(Id, { maxItems: limits.maxBatch })),
      deleteAll: Opt(Type.Boolean()),
    }),
  );
export type GroupUsersDeleteData = DataOf<typeof GroupUsersDeleteBody>;

/**
 * organizations/usergroups/get (an extension, docs/api.md "POST /v1/organizations/usergroups/get"): the
 * organization's groups, paged as organizations/get.
 */
export const UserGroupsGetBody = (_limits: InputLimits) =>
  RequestBody(
    Type.Object({
      organizationId: Id,
      ...PAGING,
    }),
  );
export type UserGroupsGetData = DataOf<typeof UserGroupsGetBody>;
