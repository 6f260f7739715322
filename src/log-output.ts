// Where the service's log goes: standard output, written as pino writes it by default (asynchronously,
// so a slow reader never stalls requests), but with a bounded buffer. While nobody reads (a stalled log
// shipper, a full pipe), the lines waiting would otherwise grow without end, one per request; past the
// bound they are dropped and counted instead (docs/decisions.md, MARGINALIA_LOG_BUFFER_MB).
import { pino } from 'pino';

/** Standard output with at most `megabytes` of lines waiting; past it, a line is dropped ('drop' event). */
export function boundedStdout(megabytes: number) {
  return pino.destination({ dest: process.stdout.fd ?? 1, minLength: 0, sync: false, maxLength: megabytes * 1024 * 1024 });
}
