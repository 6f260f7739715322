// Users' roles on organizations, folders and documents (/v2 only).
import {
  GenerateSignatureBody,
  GenerateSignatureResult,
  MAX_PERMISSION_CHECKS,
  MessageOnlyResult,
  PermissionsAddBody,
  PermissionsGetBody,
  PermissionsGetResult,
  PermissionsRemoveBody,
} from '../permissions.js';
import { contract } from './contract.js';

const tags = ['permissions'] as const;

export const permissions = {
  permissionsAdd: contract({
    paths: { v2: 'auth/permissions/add' },
    summary: 'Give a user roles (viewer or editor) on organizations, folders and documents, each until an optional expiresAt',
    description:
      '`accessRole` is `viewer` (reads) or `editor` (also writes; the default). `expiresAt` is Unix seconds; an expired ' +
      'role counts for nothing. A folder or document names its `organizationId`. A role given again replaces the one ' +
      'held. One event `user.permissions_add` per organization.',
    tags,
    body: PermissionsAddBody,
    example: {
      user: { userId: 'ada' },
      permissions: {
        resources: [
          { type: 'organization', id: 'acme', accessRole: 'viewer' },
          { type: 'document', id: 'spec', organizationId: 'acme', accessRole: 'editor', expiresAt: 1893456000 },
        ],
      },
    },
    result: MessageOnlyResult,
  }),
  permissionsGet: contract({
    paths: { v2: 'auth/permissions/get' },
    summary: "Users' roles in an organization, and their access to the folders and documents named",
    description:
      'Per user: the organization role, the live roles held on folders and documents, and for each folder and document ' +
      'named the role that applies and the access type, or `permission_denied`. A folder or document named that does ' +
      `not exist answers 404 \`NOT_FOUND\` with every entry in \`details\`. At most ${MAX_PERMISSION_CHECKS} decisions a ` +
      'request (users times resources named).',
    tags,
    body: PermissionsGetBody,
    example: { organizationId: 'acme', userIds: ['ada'], documentIds: ['spec'] },
    result: PermissionsGetResult,
    also: [404],
  }),
  permissionsRemove: contract({
    paths: { v2: 'auth/permissions/remove' },
    summary: "Take a user's roles on organizations, folders and documents away",
    description: 'Resources the user holds no role on are skipped. One event `user.permissions_remove` per organization.',
    tags,
    body: PermissionsRemoveBody,
    example: { userId: 'ada', permissions: { resources: [{ type: 'document', id: 'spec', organizationId: 'acme' }] } },
    result: MessageOnlyResult,
  }),
  generateSignature: contract({
    paths: { v2: 'auth/generate_signature' },
    summary: "Sign a permission provider's decisions (HMAC-SHA256 under a key of the tenant's)",
    description:
      'The signature of the decisions as sent (each member in the documented order, absent ones left out), hex. ' +
      'Call it from your server only.',
    tags,
    body: GenerateSignatureBody,
    example: { permissions: [{ userId: 'ada', resourceId: 'spec', type: 'document', hasAccess: true, accessRole: 'editor' }] },
    result: GenerateSignatureResult,
  }),
};
