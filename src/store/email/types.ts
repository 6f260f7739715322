// What the email outbox's store code answers and takes (docs/decisions.md, "Email (issue 40)").
import type { SettingValue } from '../../domain/notifications.js';
import type { ServiceSetting } from '../../domain/service-settings.js';

/** How rows are drafted (MARGINALIA_EMAIL_DIGEST_SECONDS, MARGINALIA_EMAIL_MENTIONS_AT_ONCE); absent: email is off, none are. */
export interface EmailDrafting {
  digestMs: number;
  mentionsAtOnce: boolean;
}

/** One row of a digest, with its notification as the database has it now (null: deleted since it was drafted). */
export interface DigestRow {
  id: number;
  notificationId: string;
  documentId: string | null;
  documentName: string | null;
  concerns: boolean;
  mention: boolean;
  attempts: number;
  createdAt: number;
  notification: {
    headlineTemplate: string;
    /** JSON text. */
    headlineData: string;
    body: string;
    actionUserId: string;
    actionUserName: string | null;
    timestamp: number;
    source: string;
  } | null;
}

/** One recipient's claimed rows: one mail. */
export interface ClaimedDigest {
  tenantId: string;
  organizationId: string;
  userId: string;
  /** The recipient's profile in the organization; null: none. */
  profile: { name: string | null; email: string | null } | null;
  /** The recipient's email setting by document ('' the organization's), where one was set. */
  settings: ReadonlyMap<string, SettingValue>;
  /** The tenant's workspace email service (/v2 workspace/emailconfig); null: never set. */
  service: ServiceSetting | null;
  /** Profile names of the action users, by userId. */
  names: ReadonlyMap<string, string>;
  rows: DigestRow[];
}

export type EmailFinish =
  | { status: 'sent' | 'skipped' | 'failed'; at: number; error: string | null }
  | { status: 'retrying'; at: number; error: string | null };
