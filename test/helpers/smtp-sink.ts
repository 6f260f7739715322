// A real SMTP server in the test process (smtp-server), each mail parsed with mailparser: what the email tests
// read the server's mails from. It can refuse mails (an SMTP 4xx or 5xx), and be slow, on demand.
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SmtpSink {
  url: string;
  port: number;
  mails: ParsedMail[];
  /** When each mail was taken (Date.now()), in the order of `mails`. */
  takenAt: number[];
  /** Refusals still to answer, in order, before mails are taken again: [code, text]. */
  refusals: [number, string][];
  /** Milliseconds each mail takes to be accepted. */
  delayMs: number;
  /** Mails refused so far. */
  refused: number;
  until(check: () => boolean, ms: number, what: string): Promise<void>;
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const sink = { mails: [] as ParsedMail[], takenAt: [] as number[], refusals: [] as [number, string][], delayMs: 0, refused: 0 };
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === 'mailer' && auth.password === 's3cret') callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, _session, callback) {
      const refusal = sink.refusals.shift();
      simpleParser(stream).then(
        (mail) => {
          setTimeout(() => {
            if (refusal) {
              sink.refused++;
              const err = new Error(refusal[1]) as Error & { responseCode: number };
              err.responseCode = refusal[0];
              return callback(err);
            }
            sink.mails.push(mail);
            sink.takenAt.push(Date.now());
            callback();
          }, sink.delayMs);
        },
        (err: Error) => callback(err),
      );
    },
  });
  // A client killed mid-mail (kill -9 of the server under test) resets its connection: expected, not a failure.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return Object.assign(sink, {
    port,
    url: `smtp://mailer:s3cret@127.0.0.1:${port}`,
    async until(check: () => boolean, ms: number, what: string) {
      const deadline = Date.now() + ms;
      while (!check()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (${sink.mails.length} mails so far)`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
