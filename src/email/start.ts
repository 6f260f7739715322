// The sender as the server runs it, from the configuration (docs/operations.md, "Email"); null while email is off.
import type { Config } from '../config/index.js';
import { redactUrl } from '../config/index.js';
import type { Store } from '../store/store.js';
import { EmailSender, type EmailMeter, type SenderLog } from './sender.js';
import { loadTemplates } from './templates.js';
import { smtpTransport } from './transport.js';

/** Mails under way at once in one process (and SMTP connections it keeps). */
export const EMAIL_CONCURRENCY = 4;

export function startEmailSender(config: Config, store: Store, log: SenderLog, meter?: EmailMeter): EmailSender | null {
  if (config.smtpUrl === null || config.emailFrom === null) return null;
  const sender = new EmailSender({
    store,
    transport: smtpTransport({
      url: config.smtpUrl,
      requireTls: config.emailRequireTls,
      rejectUnauthorized: config.emailTlsRejectUnauthorized,
      maxConnections: EMAIL_CONCURRENCY,
    }),
    templates: loadTemplates(config.emailTemplatesDir),
    from: config.emailFrom,
    publicUrl: config.publicUrl,
    maxAttempts: config.emailMaxAttempts,
    retryMinMs: config.emailRetryMinMs,
    retryMaxMs: config.emailRetryMaxMs,
    pollMs: config.emailPollMs,
    leaseMs: config.emailLeaseMs,
    concurrency: EMAIL_CONCURRENCY,
    log,
    meter,
  });
  log.info(
    {
      smtp: redactUrl(config.smtpUrl),
      digestSeconds: config.emailDigestSeconds,
      templates: config.emailTemplatesDir ?? 'shipped',
    },
    'email: notifications are mailed',
  );
  return sender;
}
