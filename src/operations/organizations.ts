// Organizations as objects: created, read, renamed, deleted and disabled.
import { success } from '../http/envelope.js';
import { nextPageTokenOf, operation, pageTokenOf } from './operation.js';
import { CONTRACT } from '../schemas/operations/index.js';
import {
  addOrganizations,
  deleteOrganizations,
  getOrganizations,
  setOrganizationsDisabled,
  updateOrganizations,
} from '../services/organizations.js';

/** Organizations as objects. */
export const organizations = [
  operation(CONTRACT.organizationsAdd, {
    run: addOrganizations,
    answer: 'Organization(s) added successfully.',
  }),
  operation(CONTRACT.organizationsGet, {
    run: getOrganizations,
    answer: (got) => success('Organization(s) retrieved successfully.', got.organizations, pageTokenOf(got.nextPageToken)),
    adapters: {
      v2: {
        answer: (got) =>
          success('Organization(s) retrieved successfully.', got.organizations, nextPageTokenOf(got.nextPageToken)),
      },
    },
  }),
  operation(CONTRACT.organizationsUpdate, {
    run: updateOrganizations,
    answer: 'Organization(s) updated successfully.',
  }),
];

/** An organization deleted or disabled as a whole (listed after documents and folders, where /openapi.json has always shown them). */
export const organizationLifecycle = [
  operation(CONTRACT.organizationsDelete, {
    run: deleteOrganizations,
    answer: 'Organization(s) deleted successfully.',
  }),
  operation(CONTRACT.organizationsDisable, {
    run: setOrganizationsDisabled,
    answer: 'Updated disable state for Organization(s) successfully.',
  }),
];
