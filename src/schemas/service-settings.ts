// The request data and answers of the workspace's service settings (/v2's workspace/emailconfig,
// notificationconfig and permissionproviderconfig, get and update; docs/api.md "Workspace service settings").
import Type from 'typebox';
import { MAX_URL_LENGTH, Opt, RequestBody, type DataOf, type InputLimits } from './common.js';
import { MessageOnlyResult, Success } from './responses.js';

/** The get pages take no member: `{"data": {}}`. */
export const ServiceSettingGetBody = (_limits: InputLimits) => RequestBody(Type.Object({}));
export type ServiceSettingGetData = DataOf<typeof ServiceSettingGetBody>;

/** Most triggers one group of a service's configuration may hold: the original lists about twenty. */
export const MAX_TRIGGERS = 100;
const TriggerMap = Type.Record(Type.String({ minLength: 1, maxLength: 128 }), Type.Boolean(), {
  maxProperties: MAX_TRIGGERS,
  description: 'Trigger name to on (true) or off (false)',
});
/** A string a setting keeps and shows as sent (an id, a name, a token). */
const Setting = (maxLength: number, description: string) => Opt(Type.String({ maxLength, description }));

export const EmailConfigUpdateBody = (_limits: InputLimits) =>
  RequestBody(
    Type.Object({
      useEmailService: Opt(Type.Boolean({ description: 'Whether the email service is on' })),
      emailServiceConfig: Opt(
        Type.Object({
          type: Setting(64, '`default`, `sendgrid` or `custom`'),
          apiKey: Setting(1024, "The provider's API key: kept and shown as sent"),
          fromEmail: Setting(254, 'The sender address: empty, or an email address'),
          fromCompany: Setting(256, 'The sender company name'),
          commentTemplateId: Setting(256, "A provider template's id for comment emails"),
          tagTemplateId: Setting(256, "A provider template's id for mention emails"),
          triggers: Opt(TriggerMap),
        }),
      ),
    }),
  );
export type EmailConfigUpdateData = DataOf<typeof EmailConfigUpdateBody>;

const BatchLevelIn = Type.Object({
  isEnabled: Opt(Type.Boolean()),
  batchWindowSeconds: Opt(Type.Integer({ minimum: 10, maximum: 604_800, description: '10 seconds to a week' })),
  maxActivities: Opt(Type.Integer({ minimum: 2, maximum: 50 })),
});

export const NotificationConfigUpdateBody = (_limits: InputLimits) =>
  RequestBody(
    Type.Object({
      useNotificationService: Opt(Type.Boolean({ description: 'Whether the notification service (its triggers) is on' })),
      notificationServiceConfig: Opt(
        Type.Object({
          triggers: Opt(Type.Object({ comment: Opt(TriggerMap), huddle: Opt(TriggerMap) })),
          delayConfig: Opt(
            Type.Object({
              isEnabled: Opt(Type.Boolean()),
              delaySeconds: Opt(Type.Integer({ minimum: 10, maximum: 15_552_000, description: '10 seconds to 6 months' })),
            }),
          ),
          batchConfig: Opt(Type.Object({ document: Opt(BatchLevelIn), user: Opt(BatchLevelIn) })),
        }),
      ),
    }),
  );
export type NotificationConfigUpdateData = DataOf<typeof NotificationConfigUpdateBody>;

export const PermissionProviderConfigUpdateBody = (_limits: InputLimits) =>
  RequestBody(
    Type.Object({
      usePermissionProvider: Opt(Type.Boolean({ description: 'Whether the permission provider is on' })),
      permissionProviderConfig: Opt(
        Type.Object({
          permissionProviderUrl: Setting(MAX_URL_LENGTH, 'Empty (clears it), or an http(s) URL on a public address'),
          authToken: Setting(1024, 'The token sent to the provider: kept and shown as sent'),
        }),
      ),
    }),
  );
export type PermissionProviderConfigUpdateData = DataOf<typeof PermissionProviderConfigUpdateBody>;

export const EmailConfigResult = Success(
  Type.Object({
    useEmailService: Type.Boolean(),
    emailServiceConfig: Type.Object({
      type: Type.String(),
      apiKey: Type.String(),
      fromEmail: Type.String(),
      fromCompany: Type.String(),
      commentTemplateId: Type.String(),
      tagTemplateId: Type.String(),
      triggers: Type.Optional(Type.Record(Type.String(), Type.Boolean())),
    }),
  }),
);

const BatchLevel = Type.Object({ isEnabled: Type.Boolean(), batchWindowSeconds: Type.Integer(), maxActivities: Type.Integer() });
export const NotificationConfigResult = Success(
  Type.Object({
    useNotificationService: Type.Boolean(),
    notificationServiceConfig: Type.Object({
      triggers: Type.Object({
        comment: Type.Record(Type.String(), Type.Boolean()),
        huddle: Type.Record(Type.String(), Type.Boolean()),
      }),
      delayConfig: Type.Object({ isEnabled: Type.Boolean(), delaySeconds: Type.Integer() }),
      batchConfig: Type.Object({ document: BatchLevel, user: BatchLevel }),
    }),
  }),
);

/**
 * permissionproviderconfig/update's answer, as its page prints it: the message alone, no `data` (get reads the
 * setting back; docs/decisions.md).
 */
/** permissionproviderconfig/update: the message alone, as its page prints it. */
export const PermissionProviderConfigUpdateResult = MessageOnlyResult;

export const PermissionProviderConfigResult = Success(
  Type.Object({
    usePermissionProvider: Type.Boolean(),
    permissionProviderConfig: Type.Object({ permissionProviderUrl: Type.String(), authToken: Type.String() }),
  }),
);
