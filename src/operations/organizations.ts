// Organizations as objects: created, read, renamed, deleted and disabled.
import { success } from '../http/envelope.js';
import { operation, pageTokenOf } from './operation.js';
import {
  OrganizationIdsBody,
  OrganizationsBody,
  OrganizationsDisableBody,
  OrganizationsGetBody,
} from '../schemas/organizations.js';
import {
  DisableStateResult,
  OrganizationListResult,
  OrganizationsDeleteResult,
  OrganizationsResult,
  answers,
} from '../schemas/responses.js';
import {
  addOrganizations,
  deleteOrganizations,
  getOrganizations,
  setOrganizationsDisabled,
  updateOrganizations,
} from '../services/organizations.js';

/** Organizations as objects. */
export const organizations = [
  operation({
    paths: { v1: 'organizations/add' },
    summary: 'Create organizations, or rename them (SPEC 12)',
    tags: ['organizations'],
    body: OrganizationsBody,
    response: answers(OrganizationsResult),
    run: addOrganizations,
    answer: 'Organization(s) added successfully.',
  }),
  operation({
    paths: { v1: 'organizations/get' },
    summary: "The tenant's organizations, by id or all, in id order and paged (SPEC 12)",
    tags: ['organizations'],
    body: OrganizationsGetBody,
    response: answers(OrganizationListResult),
    run: getOrganizations,
    answer: (got) => success('Organization(s) retrieved successfully.', got.organizations, pageTokenOf(got.nextPageToken)),
  }),
  operation({
    paths: { v1: 'organizations/update' },
    summary: 'Rename organizations that exist (SPEC 12)',
    tags: ['organizations'],
    body: OrganizationsBody,
    response: answers(OrganizationsResult),
    run: updateOrganizations,
    answer: 'Organization(s) updated successfully.',
  }),
];

/** An organization deleted or disabled as a whole (listed after documents and folders, where /openapi.json has always shown them). */
export const organizationLifecycle = [
  operation({
    paths: { v1: 'organizations/delete' },
    summary: 'Delete organizations with everything in them, in one transaction (SPEC 12)',
    tags: ['organizations'],
    body: OrganizationIdsBody,
    response: answers(OrganizationsDeleteResult),
    run: deleteOrganizations,
    answer: 'Organization(s) deleted successfully.',
  }),
  operation({
    paths: { v1: 'organizations/access/disablestate/update' },
    summary: 'Disable organizations (every write under them is refused) or enable them again (SPEC 12)',
    tags: ['organizations'],
    body: OrganizationsDisableBody,
    response: answers(DisableStateResult),
    run: setOrganizationsDisabled,
    answer: 'Updated disable state for Organization(s) successfully.',
  }),
];
