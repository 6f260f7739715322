// The SSRF guard of webhooks (src/webhooks/ssrf.ts): which addresses are refused and as what, in every
// spelling; a host is refused when any address it resolves to is; and the connection-time lookup
// refuses what webhooks/add would have (DNS rebinding).
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { type AddressClass, guardedLookup, refusedAddress, refusedHost } from '../../src/webhooks/ssrf.js';

const CLASSES: Record<AddressClass, string[]> = {
  unspecified: ['0.0.0.0', '0.1.2.3', '::', '::ffff:0.0.0.0'],
  loopback: [
    '127.0.0.1',
    '127.255.255.254',
    '::1',
    '0:0:0:0:0:0:0:1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::FFFF:127.0.0.2',
    // Teredo, whose client address is the last 32 bits inverted: 127.0.0.1.
    '2001:0:4136:e378:8000:63bf:80ff:fffe',
  ],
  private: [
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.0.1',
    '192.168.255.255',
    '100.64.0.1',
    '100.127.255.255',
    'fc00::1',
    'fd12:3456:789a::1',
    'fec0::1',
    '64:ff9b:1::1',
    '::ffff:10.0.0.1',
    '::ffff:192.168.1.1',
    '64:ff9b::10.0.0.1',
    '2002:0a00:0001::1',
  ],
  'link-local': [
    '169.254.0.1',
    '169.254.169.254',
    'fe80::1',
    'fe80::1%eth0',
    'febf::1',
    '::ffff:169.254.169.254',
    '64:ff9b::a9fe:a9fe',
  ],
  multicast: ['224.0.0.1', '239.255.255.250', 'ff02::1', 'ff05::1:3', '::ffff:224.0.0.251'],
  reserved: [
    '240.0.0.1',
    '255.255.255.255',
    '::10.0.0.1',
    '::8.8.8.8',
    '192.0.0.8',
    '198.18.0.1',
    '198.19.255.255',
    'not an address',
    '',
  ],
};

const PUBLIC = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.215.14',
  '172.15.255.255',
  '172.32.0.0',
  '100.63.255.255',
  '100.128.0.0',
  '169.253.255.255',
  '192.167.255.255',
  '223.255.255.255',
  '2606:4700:4700::1111',
  '2001:4860:4860::8888',
  '::ffff:8.8.8.8',
  '64:ff9b::8.8.8.8',
  '2002:0808:0808::1',
  '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
  '192.0.1.1',
  '198.17.255.255',
  '198.20.0.0',
  'fbff::1',
  'fe7f::1',
];

describe('refusedAddress', () => {
  for (const [kind, addresses] of Object.entries(CLASSES))
    test(`${kind}: ${addresses.length} spellings`, () => {
      for (const a of addresses) assert.equal(refusedAddress(a), kind, a);
    });

  test('public addresses, IPv4 and IPv6, also inside IPv6 (mapped, NAT64, 6to4, Teredo), pass', () => {
    for (const a of PUBLIC) assert.equal(refusedAddress(a), null, a);
  });
});

describe('refusedHost', () => {
  const resolving =
    (...addresses: string[]) =>
    async () =>
      addresses.map((address) => ({ address }));

  test('an address in the URL is judged without a lookup', async () => {
    const never = async () => assert.fail('no lookup for an IP literal');
    assert.equal(await refusedHost(new URL('http://[::1]:8080/x'), never), '::1 is a loopback address');
    assert.equal(await refusedHost(new URL('http://0x7f.1/x'), never), '127.0.0.1 is a loopback address');
    assert.equal(await refusedHost(new URL('https://8.8.8.8/'), never), null);
  });

  test('a name is refused when any address it resolves to is refused', async () => {
    const url = new URL('https://hooks.example.com/in');
    assert.equal(await refusedHost(url, resolving('93.184.215.14', '2606:4700::1')), null);
    assert.equal(
      await refusedHost(url, resolving('93.184.215.14', '10.0.0.7')),
      'hooks.example.com resolves to 10.0.0.7, a private address',
    );
    assert.equal(await refusedHost(url, resolving()), 'hooks.example.com does not resolve');
    const failing = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    assert.equal(await refusedHost(url, failing), 'hooks.example.com does not resolve (ENOTFOUND)');
  });

  test('the system resolver: localhost is loopback', async () => {
    assert.match((await refusedHost(new URL('http://localhost:1/')))!, /^localhost resolves to .*, a loopback address$/);
  });
});

describe('guardedLookup (http.request at connection time)', () => {
  test('a connection to a name that resolves to loopback is refused before it is made', async () => {
    let reached = false;
    const server = http.createServer((_req, res) => {
      reached = true;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const port = (server.address() as AddressInfo).port;
    try {
      const err = await new Promise<NodeJS.ErrnoException>((resolve, reject) => {
        const req = http.request({ host: 'localhost', port, method: 'POST', lookup: guardedLookup }, () =>
          reject(new Error('the request got through')),
        );
        req.on('error', resolve);
        req.end('{}');
      });
      assert.equal(err.code, 'EWEBHOOKADDRESS');
      assert.match(err.message, /^localhost resolves to .*, a loopback address$/);
      assert.equal(reached, false);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  test('it answers both ways Node asks: one address, or all of them', async () => {
    const one = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      guardedLookup('localhost', {}, (err) => resolve(err)),
    );
    assert.equal(one?.code, 'EWEBHOOKADDRESS');
    const all = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      guardedLookup('localhost', { all: true }, (err) => resolve(err)),
    );
    assert.equal(all?.code, 'EWEBHOOKADDRESS');
    const missing = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      guardedLookup('no-such-host.invalid', {}, (err) => resolve(err)),
    );
    assert.ok(missing && missing.code !== 'EWEBHOOKADDRESS', String(missing?.code));
  });
});
