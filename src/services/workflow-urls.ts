// The receivers approval workflows are given (a definition's webhookConfig, a dispatch's webhookUrl),
// checked as the pages say: https, and no private, loopback or internal host named. Nothing is sent to
// them here (events reach the tenant's webhooks instead: docs/decisions.md), so no name is resolved.
import { invalid } from '../errors.js';
import { hostOf, refusedAddress } from '../webhooks/ssrf.js';
import { isIP } from 'node:net';

const INTERNAL_NAMES = new Set(['localhost', 'metadata', 'metadata.google.internal']);

export function checkWebhookUrl(member: string, text: string): void {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid(`${member} is not a URL`);
  }
  if (url.protocol !== 'https:') throw invalid(`${member} must use https scheme`);
  const host = hostOf(url).toLowerCase();
  const named = INTERNAL_NAMES.has(host) || host.endsWith('.internal') || host.endsWith('.localhost');
  if (named || (isIP(host) !== 0 && refusedAddress(host) !== null))
    throw invalid(`${member} host resolves to a private, loopback, or link-local address`);
}
