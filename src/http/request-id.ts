// docs/api.md "Wire format": every response carries x-request-id, the caller's when it is well formed, else a new
// one.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const WELL_FORMED = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && WELL_FORMED.test(given) ? given : randomUUID();
}
