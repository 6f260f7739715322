// notifications/config/get and notifications/config/set (docs/api.md, "POST /v1/notifications/config/set"): each
// user's inbox and email setting per document. The email setting is kept and answered; this service sends no email.
import { invalid } from '../errors.js';
import { type Maybe, then } from '../maybe.js';
import type { NotificationConfigGetData, NotificationConfigSetData } from '../schemas/notifications.js';
import type { NotificationSetting } from '../domain/notifications.js';
import type { Caller, Services } from './context.js';
import { spell } from './member-path.js';

/** What a user who never set one reads (docs/api.md, "POST /v1/notifications/config/get"). */
export const DEFAULT_SETTING: NotificationSetting = { inbox: 'MINE', email: 'MINE' };

/** One entry per document, in the order asked; a document asked twice is answered once. */
export function getNotificationConfig({ store }: Services, caller: Caller, input: NotificationConfigGetData) {
  const documentIds = [...new Set(input.documentIds)];
  return then(store.notificationSettings(caller.id, input.organizationId, input.userId, documentIds), (set) =>
    documentIds.map((documentId) => {
      const s = set.get(documentId) ?? DEFAULT_SETTING;
      return {
        config: { inbox: s.inbox, email: s.email },
        metadata: { organizationId: input.organizationId, documentId, userId: input.userId, apiKey: caller.apiKey },
      };
    }),
  );
}

/** Sets every (document, user) pair in one transaction; answers by userId with the last document. */
export function setNotificationConfig(
  { store, limits, clock }: Services,
  caller: Caller,
  input: NotificationConfigSetData,
): Maybe<object> {
  const documentIds = [...new Set(input.documentIds)];
  const userIds = [...new Set(input.userIds)];
  const setting = {
    ...(input.config.inbox != null && { inbox: input.config.inbox }),
    ...(input.config.email != null && { email: input.config.email }),
  };
  if (Object.keys(setting).length === 0) {
    throw invalid(`${spell(['config'])} needs ${spell(['config', 'inbox'])} or ${spell(['config', 'email'])}.`);
  }
  if (documentIds.length * userIds.length > limits.maxMarksPerRequest) {
    throw invalid(
      `${spell(['documentIds'])} times ${spell(['userIds'])} is ${documentIds.length * userIds.length} settings; ` +
        `one request sets at most ${limits.maxMarksPerRequest} (MARGINALIA_MAX_MARKS_PER_REQUEST).`,
    );
  }
  const lastDocument = input.documentIds[input.documentIds.length - 1]!;
  return then(store.setNotificationSettings(caller.id, input.organizationId, documentIds, userIds, setting, clock()), () =>
    Object.fromEntries(
      userIds.map((userId) => [
        userId,
        { success: true, userId, documentId: lastDocument, message: 'User config set successfully.' },
      ]),
    ),
  );
}
