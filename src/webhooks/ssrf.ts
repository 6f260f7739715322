// The SSRF guard of webhooks (docs/events.md, "Webhooks"): a webhook may not be sent to the service's own machine
// or network. Addresses that are loopback, private (RFC 1918, carrier-grade NAT 100.64/10, unique local
// fc00::/7), link-local, unspecified, multicast or reserved are refused, whether written as IPv4, as
// IPv6, or as IPv4 inside IPv6 (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d, NAT64 64:ff9b::/96, 6to4
// 2002::/16, Teredo 2001::/32). The check runs at webhooks/add (every address the host resolves to) and again each time
// a connection is made (`guardedLookup`, http.request's `lookup`), so a name that resolves elsewhere
// later (DNS rebinding) is refused then. MARGINALIA_WEBHOOK_ALLOW_PRIVATE=1 turns the guard off.
import dns from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

export type AddressClass = 'unspecified' | 'loopback' | 'private' | 'link-local' | 'multicast' | 'reserved';

const RANGES: readonly [AddressClass, string, number, 'ipv4' | 'ipv6'][] = [
  ['unspecified', '0.0.0.0', 8, 'ipv4'],
  ['unspecified', '::', 128, 'ipv6'],
  ['loopback', '127.0.0.0', 8, 'ipv4'],
  ['loopback', '::1', 128, 'ipv6'],
  ['private', '10.0.0.0', 8, 'ipv4'],
  ['private', '172.16.0.0', 12, 'ipv4'],
  ['private', '192.168.0.0', 16, 'ipv4'],
  ['private', '100.64.0.0', 10, 'ipv4'],
  ['private', 'fc00::', 7, 'ipv6'],
  // Site-local, deprecated (RFC 3879) but still routed privately where it is used.
  ['private', 'fec0::', 10, 'ipv6'],
  // Local-use NAT64 (RFC 8215): translated by the operator's own gateway, into whatever it serves.
  ['private', '64:ff9b:1::', 48, 'ipv6'],
  ['link-local', '169.254.0.0', 16, 'ipv4'],
  ['link-local', 'fe80::', 10, 'ipv6'],
  ['multicast', '224.0.0.0', 4, 'ipv4'],
  ['multicast', 'ff00::', 8, 'ipv6'],
  // 240/4 (future use) and the broadcast address; ::/96 is IPv4-compatible IPv6, deprecated (RFC 4291).
  ['reserved', '240.0.0.0', 4, 'ipv4'],
  // IETF protocol assignments (RFC 6890: DS-Lite's B4/AFTR among them), and the network-device
  // benchmarking range (RFC 2544), which some operators route inside their own networks.
  ['reserved', '192.0.0.0', 24, 'ipv4'],
  ['reserved', '198.18.0.0', 15, 'ipv4'],
  ['reserved', '::', 96, 'ipv6'],
];

const LISTS = new Map<AddressClass, BlockList>();
for (const [kind, network, prefix, family] of RANGES) {
  const list = LISTS.get(kind) ?? new BlockList();
  LISTS.set(kind, list);
  list.addSubnet(network, prefix, family);
}

/** An IPv6 address as its eight 16-bit groups (zone dropped); null when it is not one. */
function groupsOf(address: string): number[] | null {
  let text = address.split('%')[0]!;
  if (isIP(text) !== 6) return null;
  // A dotted IPv4 tail counts as the last two groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null];
  const parse = (s: string | null | undefined) => (s ? s.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const front = parse(head);
  const back = parse(tail);
  return tail === null ? front : [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

const ipv4Of = (hi: number, lo: number): string => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;

/**
 * The IPv4 address carried inside an IPv6 one by NAT64 (64:ff9b::/96), 6to4 (2002::/16) or Teredo
 * (2001::/32, the client's address in the last 32 bits, inverted); null when none.
 */
function embeddedIpv4(address: string): string | null {
  const g = groupsOf(address);
  if (!g) return null;
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return ipv4Of(g[6]!, g[7]!);
  if (g[0] === 0x2002) return ipv4Of(g[1]!, g[2]!);
  if (g[0] === 0x2001 && g[1] === 0) return ipv4Of(~g[6]! & 0xffff, ~g[7]! & 0xffff);
  return null;
}

/** Why an address may not receive webhooks, or null when it may. Anything that is not an IP address is refused. */
export function refusedAddress(address: string): AddressClass | null {
  const family = isIP(address);
  if (family === 0) return 'reserved';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  // BlockList checks IPv4-mapped IPv6 addresses (::ffff:a.b.c.d) against the IPv4 ranges itself.
  for (const [kind, list] of LISTS) if (list.check(address, type)) return kind;
  const inner = family === 6 ? embeddedIpv4(address) : null;
  return inner === null ? null : refusedAddress(inner);
}

/** A URL's host as an address or a name: IPv6 without its brackets. */
export const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

export type Resolver = (host: string) => Promise<readonly { address: string }[]>;

const systemResolver: Resolver = (host) => dns.promises.lookup(host, { all: true, verbatim: true });

/** Why a webhook may not be sent to this URL's host (a sentence), or null when it may. */
export async function refusedHost(url: URL, resolve: Resolver = systemResolver): Promise<string | null> {
  const host = hostOf(url);
  if (isIP(host) !== 0) {
    const kind = refusedAddress(host);
    return kind ? `${host} is a ${kind} address` : null;
  }
  let addresses: readonly { address: string }[];
  try {
    addresses = await resolve(host);
  } catch (err) {
    return `${host} does not resolve (${(err as { code?: string }).code ?? 'lookup failed'})`;
  }
  if (addresses.length === 0) return `${host} does not resolve`;
  for (const { address } of addresses) {
    const kind = refusedAddress(address);
    if (kind) return `${host} resolves to ${address}, a ${kind} address`;
  }
  return null;
}

/** The error a connection gets when its host resolves to a refused address. */
export class RefusedAddressError extends Error {
  readonly code = 'EWEBHOOKADDRESS';
}

/**
 * http.request's `lookup`: resolves as Node would, and refuses the connection when any address of
 * the host is refused, so what was checked at webhooks/add is checked again at every connection.
 */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    if (addresses.length === 0)
      return callback(Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' }), '', 0);
    for (const { address } of addresses) {
      const kind = refusedAddress(address);
      if (kind) return callback(new RefusedAddressError(`${hostname} resolves to ${address}, a ${kind} address`), '', 0);
    }
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};
