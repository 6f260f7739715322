// The SMTP connection (nodemailer), from MARGINALIA_SMTP_URL and the TLS settings (docs/operations.md, "Email").
import nodemailer from 'nodemailer';

/** One mail as the sender hands it over. */
export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
}

/** What sends mail: SMTP in the server, anything in a test of the sender. */
export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

export interface SmtpOptions {
  /** smtp://user:password@host:port or smtps://... */
  url: string;
  requireTls: boolean;
  rejectUnauthorized: boolean;
  /** Connections kept open to the server (the sender's mails at once). */
  maxConnections: number;
  timeoutMs?: number;
}

/** An SMTP transport over a small pool of connections; an SMTP refusal or a failed connection rejects `send`. */
export function smtpTransport(options: SmtpOptions): MailTransport {
  const url = new URL(options.url);
  const secure = url.protocol === 'smtps:';
  const timeout = options.timeoutMs ?? 30_000;
  const transporter = nodemailer.createTransport({
    pool: true,
    maxConnections: options.maxConnections,
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    requireTLS: options.requireTls,
    ignoreTLS: false,
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    tls: { rejectUnauthorized: options.rejectUnauthorized },
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  return {
    async send(mail) {
      await transporter.sendMail({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        headers: mail.headers,
        // Our own addresses only (domain/email.ts checks them): never what a template or a notification says.
        envelope: { from: mail.from, to: [mail.to] },
      });
    },
    close() {
      transporter.close();
    },
  };
}

/** An SMTP error's code and text for the log and the row's error column, without the credentials. */
export function smtpError(err: unknown): string {
  const e = err as { responseCode?: number; code?: string; message?: string };
  const text = (e.message ?? String(err)).replace(/\/\/[^@/\s]*@/g, '//***@').slice(0, 300);
  return e.responseCode ? `SMTP ${e.responseCode}: ${text}` : e.code ? `${e.code}: ${text}` : text;
}
