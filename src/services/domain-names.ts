// A tenant's allowed browser domains (workspace/domains/add, docs/decisions.md): what an entry means
// once normalized, and which stored entries could allow a request's Origin. Pure: the store looks an
// origin's candidate keys up by key, so no read has to scan a tenant's list.

/** The longest host DNS allows; a longer one names nothing a browser can be on. */
const MAX_HOST_LENGTH = 253;
/**
 * The longest Origin a browser can send (`https://`, the longest host, a port) and some room: a longer
 * header names no host a domain could allow, and is answered without a look at any domain.
 */
export const MAX_ORIGIN_LENGTH = 300;
/** A DNS label after IDN to ASCII (letters, digits, hyphens; underscores, which some hosts use). */
const LABEL = /^[a-z0-9_-]{1,63}$/;
/** An IPv4 address as the URL parser writes one (it has made `127.1` into `127.0.0.1`). */
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;
const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//;
/** Spaces and control characters: the URL parser would drop or encode some of them silently. */
const BLANK = /[\s\p{Cc}]/u;
const WILDCARD = '*.';

export type NormalizedDomain = { domain: string } | { problem: string };

/** `www.example.com` -> `example.com`; `www.com` stays (there would be no domain left). */
const withoutWww = (host: string): string => (host.startsWith('www.') && host.indexOf('.', 4) > 0 ? host.slice(4) : host);

/** An address rather than a name: no `www.` to drop, no parent domain a wildcard could cover. */
const isAddress = (host: string): boolean => host.startsWith('[') || IPV4.test(host);

/**
 * An entry as the tenant's list keeps it: the host of a URL or the host itself, lower case, IDN as
 * ASCII, without scheme, credentials, port, path, query or fragment, and without one leading `www.`;
 * `*.` as the whole leftmost label covers every subdomain. Or what is wrong with it.
 *
 *   https://www.google.com -> google.com     https://*.firebase.com -> *.firebase.com
 *   http://localhost:3000  -> localhost       127.0.0.1 -> 127.0.0.1
 */
export function normalizeDomain(entry: string): NormalizedDomain {
  const text = entry.trim().toLowerCase();
  if (text === '') return { problem: 'is empty' };
  if (BLANK.test(text)) return { problem: 'holds a space or a control character' };
  const scheme = SCHEME.exec(text)?.[1];
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https')
    return { problem: `has the scheme ${scheme}:, where only http: and https: name browser origins` };
  let host: string;
  try {
    host = new URL(scheme === undefined ? `http://${text}` : text).hostname;
  } catch {
    return { problem: 'is neither a URL nor a host' };
  }
  const wildcard = host.startsWith(WILDCARD);
  const name = wildcard ? host.slice(WILDCARD.length) : host;
  if (name.includes('*')) return { problem: 'has a * that is not the whole leftmost label (as in *.example.com)' };
  if (name.length > MAX_HOST_LENGTH) return { problem: `has a host longer than ${MAX_HOST_LENGTH} characters` };
  if (isAddress(name)) return wildcard ? { problem: 'puts a wildcard on an IP address' } : { domain: name };
  const labels = name.split('.');
  if (!labels.every((label) => LABEL.test(label)))
    return { problem: 'has a host that is not a domain name (labels of letters, digits and hyphens, no empty one)' };
  if (wildcard)
    return labels.length >= 2
      ? { domain: host }
      : { problem: 'puts a wildcard on a top-level domain (*.com): name a domain under it' };
  return { domain: withoutWww(name) };
}

/**
 * The stored entries that allow a request whose Origin is `origin` (scheme://host[:port]; any http(s)
 * scheme and any port): its host, the host without `www.`, and `*.` over each parent domain of two
 * labels or more (`*.example.com` covers `a.example.com` and `a.b.example.com`, not `example.com`).
 * Empty for anything that is no http(s) origin (`null`, a sandboxed page).
 */
export function originCandidates(origin: string): string[] {
  if (origin.length > MAX_ORIGIN_LENGTH) return [];
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return [];
  }
  const host = url.hostname;
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || host === '' || host.includes('*')) return [];
  if (host.length > MAX_HOST_LENGTH) return [];
  if (isAddress(host)) return [host];
  const candidates = [host];
  const bare = withoutWww(host);
  if (bare !== host) candidates.push(bare);
  const labels = host.split('.');
  for (let i = 1; i <= labels.length - 2; i++) candidates.push(`${WILDCARD}${labels.slice(i).join('.')}`);
  return candidates;
}
