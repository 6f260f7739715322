// Every event type a write records (docs/events.md, docs/decisions.md "Events of every write"): the
// one list, which the store's writes, the webhook and stream filters and the typed client all take.
// (Here among the schemas, which depend on nothing of the service, so the client package ships it.)
export const EVENT_TYPES = [
  'comment_annotation.add',
  'comment_annotation.update',
  'comment_annotation.status_change',
  'comment_annotation.delete',
  'comment_annotation.read',
  'comment.add',
  'comment.update',
  'comment.delete',
  'notification.add',
  'notification.update',
  'notification.delete',
  'notification.read',
  'notification.unread',
  'notification.config_set',
  'user.add',
  'user.update',
  'user.delete',
  'organization.add',
  'organization.update',
  'organization.delete',
  'organization.usergroup_add',
  'organization.usergroup_users_add',
  'organization.usergroup_users_delete',
  'document.add',
  'document.update',
  'document.delete',
  'folder.add',
  'folder.update',
  'folder.delete',
  'livestate.broadcast',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];
