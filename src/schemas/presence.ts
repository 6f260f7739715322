// The request data and answers of documents' presence: /v2's presence/add, update and delete, and
// presence/get (an extension; docs/api.md "Presence").
import Type from 'typebox';
import { Batch, Email, Id, Name, Opt, RequestBody, type DataOf, type InputLimits } from './common.js';
import { Success } from './responses.js';

/** The statuses a user's presence may have (the original's presence model). */
export const PRESENCE_STATUSES = ['online', 'away', 'offline'] as const;

const Status = Type.Union(
  PRESENCE_STATUSES.map((s) => Type.Literal(s)),
  { description: 'online, away or offline; presence/add makes a user online unless it says otherwise' },
);

const PresenceUserIn = Type.Object({ userId: Id, name: Opt(Name), email: Opt(Email), status: Opt(Status) });

/** presence/add and presence/update. */
export const PresenceUsersBody = (limits: InputLimits) =>
  RequestBody(Type.Object({ organizationId: Id, documentId: Id, users: Batch(limits, PresenceUserIn) }));
export type PresenceUsersData = DataOf<typeof PresenceUsersBody>;

export const PresenceDeleteBody = (limits: InputLimits) =>
  RequestBody(Type.Object({ organizationId: Id, documentId: Id, userIds: Batch(limits, Id) }));
export type PresenceDeleteData = DataOf<typeof PresenceDeleteBody>;

export const PresenceGetBody = (_limits: InputLimits) => RequestBody(Type.Object({ organizationId: Id, documentId: Id }));
export type PresenceGetData = DataOf<typeof PresenceGetBody>;

export const PresenceWriteResult = Success(Type.Object({ success: Type.Literal(true) }));

export const PresenceUser = Type.Object({
  userId: Type.String(),
  name: Type.Union([Type.String(), Type.Null()]),
  email: Type.Union([Type.String(), Type.Null()]),
  status: Status,
  lastUpdated: Type.Integer({ description: 'ms since the epoch: the last presence/add or presence/update of the user here' }),
  expiresAt: Type.Integer({ description: 'ms since the epoch: when the presence ends unless an add or an update comes first' }),
});
export const PresenceListResult = Success(Type.Array(PresenceUser));
