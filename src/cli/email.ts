// `marginalia email test <address>`: one mail through the configured SMTP server (docs/operations.md, "Email"), made
// from the templates in use with a sample digest, so an operator sees the server, the credentials, the TLS settings
// and the templates work before a user's first notification. Needs no database.
import { redactUrl, type Config } from '../config/index.js';
import { isMailAddress } from '../domain/email.js';
import { renderDigest } from '../email/digest.js';
import { loadTemplates } from '../email/templates.js';
import { smtpError, smtpTransport } from '../email/transport.js';
import { CliError, type Io } from './commands.js';

export const EMAIL_TEST_USAGE = 'email test <address>';

export async function emailTest(config: Config, io: Io, address: string): Promise<void> {
  if (!isMailAddress(address)) throw new CliError(`"${address}" is not an email address (docs/api.md, "Email").`, 2);
  if (config.smtpUrl === null || config.emailFrom === null)
    throw new CliError('MARGINALIA_SMTP_URL (and MARGINALIA_EMAIL_FROM) is not set: email is off.');
  const templates = loadTemplates(config.emailTemplatesDir);
  const now = Date.now();
  const mail = renderDigest(templates, {
    recipientName: address,
    userId: address,
    organizationId: 'a test of Marginalia',
    count: 1,
    plural: false,
    documents: [
      {
        documentId: 'test',
        title: 'A test mail',
        items: [
          {
            notificationId: 'test',
            headline: 'marginalia email test',
            body: `Sent at ${new Date(now).toISOString()}: the SMTP settings work.`,
            time: new Date(now).toISOString(),
            mention: false,
          },
        ],
      },
    ],
    unsubscribeUrl: null,
  });
  const transport = smtpTransport({
    url: config.smtpUrl,
    requireTls: config.emailRequireTls,
    rejectUnauthorized: config.emailTlsRejectUnauthorized,
    maxConnections: 1,
    timeoutMs: 15_000,
  });
  try {
    await transport.send({ from: config.emailFrom, to: address, ...mail });
  } catch (err) {
    throw new CliError(`the SMTP server did not take the mail: ${smtpError(err)}`);
  } finally {
    transport.close();
  }
  io.out(JSON.stringify({ sent: true, to: address, from: config.emailFrom, smtp: redactUrl(config.smtpUrl) }));
}
