// Organizations as objects: created, read, renamed, deleted and disabled.
import {
  OrganizationIdsBody,
  OrganizationsAddBody,
  OrganizationsBody,
  OrganizationsDisableBody,
  OrganizationsGetBody,
} from '../organizations.js';
import {
  DisableStateResult,
  OrganizationListResult,
  OrganizationListResultV2,
  OrganizationsDeleteResult,
  OrganizationsResult,
} from '../responses.js';
import { contract } from './contract.js';

export const organizations = {
  organizationsAdd: contract({
    paths: { v1: 'organizations/add', v2: 'organizations/add' },
    summary: 'Create organizations, or rename them',
    tags: ['organizations'],
    body: OrganizationsAddBody,
    example: { organizations: [{ organizationId: 'acme', organizationName: 'Acme' }, { organizationId: 'globex' }] },
    result: OrganizationsResult,
  }),
  organizationsGet: contract({
    paths: { v1: 'organizations/get', v2: 'organizations/get' },
    summary: "The tenant's organizations, by id or all, in id order and paged",
    tags: ['organizations'],
    body: OrganizationsGetBody,
    example: { pageSize: 1 },
    result: OrganizationListResult,
    v2: { result: OrganizationListResultV2 },
  }),
  organizationsUpdate: contract({
    paths: { v1: 'organizations/update', v2: 'organizations/update' },
    summary: 'Rename organizations that exist',
    tags: ['organizations'],
    body: OrganizationsBody,
    example: {
      organizations: [
        { organizationId: 'globex', organizationName: 'Globex' },
        { organizationId: 'hooli', organizationName: 'Hooli' },
      ],
    },
    result: OrganizationsResult,
  }),
  organizationsDelete: contract({
    paths: { v1: 'organizations/delete', v2: 'organizations/delete' },
    summary: 'Delete organizations with everything in them, in one transaction',
    tags: ['organizations'],
    body: OrganizationIdsBody,
    example: { organizationIds: ['globex', 'hooli'] },
    result: OrganizationsDeleteResult,
  }),
  organizationsDisable: contract({
    paths: { v1: 'organizations/access/disablestate/update', v2: 'organizations/access/disablestate/update' },
    summary: 'Disable organizations (every write under them is refused) or enable them again',
    tags: ['organizations'],
    body: OrganizationsDisableBody,
    example: { organizationIds: ['globex'], disabled: true },
    result: DisableStateResult,
  }),
};
