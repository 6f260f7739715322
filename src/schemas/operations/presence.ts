// Who is on a document (/v2 only).
import { PresenceDeleteBody, PresenceGetBody, PresenceListResult, PresenceUsersBody, PresenceWriteResult } from '../presence.js';
import { contract } from './contract.js';

const tags = ['presence'] as const;

export const presence = {
  presenceAdd: contract({
    paths: { v2: 'presence/add' },
    summary: "Add users to a document's presence (or refresh theirs), each until MARGINALIA_PRESENCE_TTL_SECONDS from now",
    description:
      'Members sent replace those of a presence not yet expired; a new presence is `online` unless `status` says ' +
      'otherwise. The organization and the document come into being. The event `presence.add` carries the users to ' +
      'the stream (users who may access the document) and to webhooks.',
    tags,
    body: PresenceUsersBody,
    example: {
      organizationId: 'acme',
      documentId: 'spec',
      users: [{ userId: 'ada', name: 'Ada', email: 'ada@acme.test', status: 'online' }],
    },
    result: PresenceWriteResult,
  }),
  presenceUpdate: contract({
    paths: { v2: 'presence/update' },
    summary: "Change present users' presence (and move its expiry)",
    description:
      'Every user named must be present (added, not deleted, not expired): otherwise 404 `NOT_FOUND` naming them, and ' +
      'nothing is written. The event `presence.update` carries the users.',
    tags,
    body: PresenceUsersBody,
    example: { organizationId: 'acme', documentId: 'spec', users: [{ userId: 'ada', status: 'away' }] },
    result: PresenceWriteResult,
    also: [404],
  }),
  presenceDelete: contract({
    paths: { v2: 'presence/delete' },
    summary: "Remove users from a document's presence",
    description: 'Users not present are skipped. The event `presence.delete` names the users whose presence went.',
    tags,
    body: PresenceDeleteBody,
    example: { organizationId: 'acme', documentId: 'spec', userIds: ['ada'] },
    result: PresenceWriteResult,
  }),
  presenceGet: contract({
    paths: { v2: 'presence/get' },
    summary: 'Who is on a document: the presence not expired, in userId order (extension)',
    tags,
    body: PresenceGetBody,
    example: { organizationId: 'acme', documentId: 'spec' },
    result: PresenceListResult,
  }),
};
