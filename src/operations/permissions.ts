// Users' roles on organizations, folders and documents (/v2 only), with the messages their pages document.
import { CONTRACT } from '../schemas/operations/index.js';
import { addPermissions, generateSignature, getPermissions, removePermissions } from '../services/permissions.js';
import { operation } from './operation.js';

const messageOnly = (message: string) => () => ({ result: { status: 'success' as const, message } });

/** Users' roles. */
export const permissions = [
  operation(CONTRACT.permissionsAdd, { run: addPermissions, answer: messageOnly('Permissions added successfully.') }),
  operation(CONTRACT.permissionsGet, { run: getPermissions, answer: 'User permissions retrieved successfully.' }),
  operation(CONTRACT.permissionsRemove, { run: removePermissions, answer: messageOnly('Permissions removed successfully.') }),
  operation(CONTRACT.generateSignature, { run: generateSignature, answer: 'Signature generated successfully.' }),
];
