// notifications/config/get and notifications/config/set (docs/api.md, "POST /v1/notifications/config/set"): each
// user's inbox and email setting per document. The email setting decides what is mailed (docs/api.md, "Email").
import { invalid } from '../errors.js';
import { type Maybe, then } from '../maybe.js';
import type { NotificationConfigGetData, NotificationConfigSetData } from '../schemas/notifications.js';
import { type NotificationSetting, ORGANIZATION_LEVEL } from '../domain/notifications.js';
import type { Caller, Services } from './context.js';
import { spell } from './member-path.js';

/** What a user who never set one reads (docs/api.md, "POST /v1/notifications/config/get"). */
export const DEFAULT_SETTING: NotificationSetting = { inbox: 'MINE', email: 'MINE' };

/**
 * One entry per document, in the order asked (a document asked twice is answered once): its setting, else
 * the user's organization-level one, else the default; or, with getOrganizationConfig, the organization-level one.
 */
export function getNotificationConfig({ store }: Services, caller: Caller, input: NotificationConfigGetData) {
  const { organizationId, userId } = input;
  const organizationLevel = input.getOrganizationConfig === true;
  const documentIds = [...new Set(input.documentIds ?? [])];
  if (!organizationLevel && documentIds.length === 0)
    throw invalid(`${spell(['documentIds'])} is required unless ${spell(['getOrganizationConfig'])} is true.`);
  const asked = organizationLevel ? [ORGANIZATION_LEVEL] : [...documentIds, ORGANIZATION_LEVEL];
  return then(store.notificationSettings(caller.id, organizationId, userId, asked), (set) => {
    const fallback = set.get(ORGANIZATION_LEVEL) ?? DEFAULT_SETTING;
    const entry = (s: NotificationSetting, documentId: string | null) => ({
      config: { inbox: s.inbox, email: s.email },
      metadata: { organizationId, ...(documentId !== null ? { documentId } : {}), userId, apiKey: caller.apiKey },
    });
    if (organizationLevel) return [entry(fallback, null)];
    return documentIds.map((documentId) => entry(set.get(documentId) ?? fallback, documentId));
  });
}

/** Sets every (document, user) pair in one transaction; answers by userId with the last document. */
export function setNotificationConfig(
  { store, limits, clock }: Services,
  caller: Caller,
  input: NotificationConfigSetData,
): Maybe<object> {
  // None: the organization-level setting (ORGANIZATION_LEVEL), kept like a document's.
  const listed = [...new Set(input.documentIds ?? [])];
  const documentIds = listed.length > 0 ? listed : [ORGANIZATION_LEVEL];
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
  const lastDocument = listed.length > 0 ? input.documentIds![input.documentIds!.length - 1]! : null;
  return then(store.setNotificationSettings(caller.id, input.organizationId, documentIds, userIds, setting, clock()), () =>
    Object.fromEntries(
      userIds.map((userId) => [
        userId,
        {
          success: true,
          userId,
          ...(lastDocument !== null ? { documentId: lastDocument } : {}),
          message: 'User config set successfully.',
        },
      ]),
    ),
  );
}
