import type { ActivityRow } from './activities.js';
import type { NotificationCursor, StoredNotification } from './notifications.js';
import type { StoredReaction } from './reactions.js';
import type { StoredComment } from './threads.js';

/** Where users/data/get's page starts in each list; null: that list is done. */
export interface UserDataCursor {
  comments: { documentId: string; annotationId: string; commentId: number } | null;
  notifications: NotificationCursor | null;
  /** The activities the user did (absent in a token issued before there were activities: none listed). */
  activities?: { timestamp: number; activityId: string } | null;
  /** The user's reactions, in key order (absent in a token issued before there were reactions: none listed). */
  reactions?: { documentId: string; annotationId: string; commentId: number; icon: string } | null;
}

/** A page of users/data/get: the user's comments (where each is) and the notifications they acted or are addressed in. */
export interface UserDataPage {
  comments: { documentId: string; annotationId: string; comment: StoredComment }[];
  notifications: StoredNotification[];
  /** Of those notifications, the ones the user archived (migration 41). */
  archivedNotificationIds: string[];
  activities: ActivityRow[];
  /** The reactions the user made (migration 45). */
  reactions: StoredReaction[];
}

/** users/data/delete/status: a finished erasure. */
export interface ErasureJob {
  tasksCount: number;
  completedAt: number;
}
