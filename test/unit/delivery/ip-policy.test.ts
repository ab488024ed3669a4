import { describe, expect, it } from 'vitest';
import {
  forbiddenAddressReason,
  isForbiddenAddress,
  isLocalhostName,
  normalizeHost,
} from '../../../src/delivery/ip-policy.js';

// What the delivery code does with a URL host: let the WHATWG parser read it,
// then normalise and judge the address.
function hostOf(spelling: string): string {
  const host = normalizeHost(new URL(`http://${spelling}/`).hostname);
  if (host?.kind !== 'ip') throw new Error(`${spelling} did not normalise to an address`);
  return host.address;
}

describe('normalizeHost', () => {
  it.each([
    ['127.1', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['0.0.0.0', '0.0.0.0'],
    ['[::]', '::'],
    ['[::1]', '::1'],
    ['[::ffff:127.0.0.1]', '::ffff:7f00:1'],
    ['[::ffff:169.254.169.254]', '::ffff:a9fe:a9fe'],
    ['[FD00::1]', 'fd00::1'],
  ])('reads %s in a URL as the address %s', (spelling, address) => {
    expect(hostOf(spelling)).toBe(address);
  });

  it('accepts the raw spellings too, not only what URL.hostname gives back', () => {
    expect(normalizeHost('127.1')).toEqual({ kind: 'ip', address: '127.0.0.1', family: 4 });
    expect(normalizeHost('[::ffff:127.0.0.1]')).toEqual({ kind: 'ip', address: '::ffff:7f00:1', family: 6 });
    expect(normalizeHost('::ffff:127.0.0.1')).toEqual({ kind: 'ip', address: '::ffff:7f00:1', family: 6 });
  });

  it('returns names lower-cased without the trailing dot', () => {
    expect(normalizeHost('Agent.Example.COM.')).toEqual({ kind: 'name', name: 'agent.example.com' });
    expect(normalizeHost('bücher.example')).toEqual({ kind: 'name', name: 'xn--bcher-kva.example' });
  });

  it.each(['', 'a/b', 'a:80', 'user@host', '1.2.3.999', '[not-an-ip]', 'fe80::1%eth0'])(
    'rejects %j, which is not a host',
    (text) => {
      expect(normalizeHost(text)).toBeNull();
    },
  );
});

describe('isForbiddenAddress, URL spellings from the brief', () => {
  it.each([
    '127.1',
    '2130706433',
    '0x7f000001',
    '0.0.0.0',
    '[::]',
    '[::ffff:127.0.0.1]',
    '[::ffff:169.254.169.254]',
    '169.254.169.254',
    '[fd00::1]',
    '[fe80::1]',
    '10.1.2.3',
    '100.64.0.1',
    '192.168.1.1',
    '172.31.255.255',
    '[::1]',
    '224.0.0.1',
  ])('forbids %s', (spelling) => {
    expect(isForbiddenAddress(hostOf(spelling))).toBe(true);
  });

  it.each(['93.184.216.34', '8.8.8.8', '[2606:4700::1111]', '172.32.0.1'])('allows %s', (spelling) => {
    expect(isForbiddenAddress(hostOf(spelling))).toBe(false);
  });
});

describe('isForbiddenAddress, range edges and IPv6 forms', () => {
  it.each([
    ['fd00::1', 'unique local (private)'],
    ['fe80::1', 'link-local'],
    ['172.16.0.0', 'private'],
    ['100.127.255.255', 'shared address space (CGNAT)'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['192.0.2.1', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['239.255.255.255', 'multicast'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
  ])('forbids %s as %s', (address, reason) => {
    expect(forbiddenAddressReason(address)).toBe(reason);
  });

  it.each([
    '::ffff:7f00:1', // mapped, hex form
    '::ffff:10.0.0.1', // mapped, dotted form
    '::127.0.0.1', // IPv4-compatible
    '64:ff9b::169.254.169.254', // NAT64 of the metadata address
    '64:ff9b::a00:1', // NAT64 of 10.0.0.1
    '2002:7f00:1::', // 6to4 of 127.0.0.1
    '2002:c0a8:0101::1', // 6to4 of 192.168.1.1
    '2001::1', // Teredo
    'fec0::1', // site-local
    'fe80::1%eth0', // zone-scoped
  ])('forbids %s by what it carries', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(['::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1', '2a00:1450:4001:81c::200e', '171.0.0.1', '172.15.255.255', '100.128.0.1', '1.1.1.1'])(
    'allows %s',
    (address) => {
      expect(isForbiddenAddress(address)).toBe(false);
    },
  );

  it('fails closed on anything that is not an address literal', () => {
    expect(isForbiddenAddress('example.com')).toBe(true);
    expect(isForbiddenAddress('127.1')).toBe(true);
    expect(isForbiddenAddress('[::1]')).toBe(true);
    expect(isForbiddenAddress('')).toBe(true);
  });
});

describe('isLocalhostName', () => {
  it.each(['localhost', 'LOCALHOST.', 'api.localhost', 'a.b.localhost'])('treats %s as local', (name) => {
    expect(isLocalhostName(name)).toBe(true);
  });

  it.each(['localhost.example.com', 'mylocalhost', 'example.com'])('treats %s as an ordinary name', (name) => {
    expect(isLocalhostName(name)).toBe(false);
  });
});
