// Which network addresses a webhook may be dialled to.
//
// Agents register arbitrary endpoint URLs, so without this policy the service
// could be made to POST into its own network (cloud metadata, databases,
// admin ports). Everything that is not ordinary public unicast is refused.

import { isIP } from 'node:net';

type Ipv4Range = { base: number; prefixLength: number; name: string };

function ipv4Range(cidr: string, name: string): Ipv4Range {
  const [address, prefix] = cidr.split('/') as [string, string];
  return { base: parseIpv4(address), prefixLength: Number(prefix), name };
}

// Order matters only for the name reported: the narrower broadcast address
// is listed before the reserved block that contains it.
const FORBIDDEN_IPV4_RANGES: readonly Ipv4Range[] = [
  ipv4Range('255.255.255.255/32', 'broadcast'),
  ipv4Range('0.0.0.0/8', 'unspecified ("this network")'),
  ipv4Range('10.0.0.0/8', 'private'),
  ipv4Range('100.64.0.0/10', 'shared address space (CGNAT)'),
  ipv4Range('127.0.0.0/8', 'loopback'),
  ipv4Range('169.254.0.0/16', 'link-local (includes cloud metadata)'),
  ipv4Range('172.16.0.0/12', 'private'),
  ipv4Range('192.0.0.0/24', 'IETF protocol assignments'),
  ipv4Range('192.0.2.0/24', 'documentation'),
  ipv4Range('192.88.99.0/24', '6to4 relay anycast'),
  ipv4Range('192.168.0.0/16', 'private'),
  ipv4Range('198.18.0.0/15', 'benchmarking'),
  ipv4Range('198.51.100.0/24', 'documentation'),
  ipv4Range('203.0.113.0/24', 'documentation'),
  ipv4Range('224.0.0.0/4', 'multicast'),
  ipv4Range('240.0.0.0/4', 'reserved'),
];

/** Dotted-quad text to an unsigned 32-bit number. Caller guarantees isIP(text) === 4. */
function parseIpv4(text: string): number {
  return text.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
}

function ipv4InRange(address: number, range: Ipv4Range): boolean {
  const hostBits = 32 - range.prefixLength;
  const divisor = 2 ** hostBits;
  return Math.floor(address / divisor) === Math.floor(range.base / divisor);
}

function classifyIpv4(address: number): string | null {
  const range = FORBIDDEN_IPV4_RANGES.find((candidate) => ipv4InRange(address, candidate));
  return range ? range.name : null;
}

/** IPv6 text to its eight 16-bit groups. Caller guarantees isIP(text) === 6 and no zone id. */
function parseIpv6Groups(text: string): number[] {
  let hexPart = text;
  let embeddedIpv4Groups: number[] = [];
  const lastColon = hexPart.lastIndexOf(':');
  const lastPiece = hexPart.slice(lastColon + 1);
  if (lastPiece.includes('.')) {
    const v4 = parseIpv4(lastPiece);
    embeddedIpv4Groups = [Math.floor(v4 / 0x10000), v4 % 0x10000];
    hexPart = hexPart.slice(0, lastColon + 1);
    // "::ffff:" keeps a dangling separator; "::" must stay intact.
    if (hexPart.endsWith(':') && !hexPart.endsWith('::')) hexPart = hexPart.slice(0, -1);
  }
  const toGroups = (piece: string): number[] =>
    piece === '' ? [] : piece.split(':').map((group) => parseInt(group, 16));
  const [head, tail] = hexPart.split('::') as [string, string | undefined];
  const headGroups = toGroups(head);
  if (tail === undefined) return [...headGroups, ...embeddedIpv4Groups];
  const tailGroups = [...toGroups(tail), ...embeddedIpv4Groups];
  const zeros = new Array<number>(8 - headGroups.length - tailGroups.length).fill(0);
  return [...headGroups, ...zeros, ...tailGroups];
}

function embeddedIpv4(high: number, low: number): number {
  return high * 0x10000 + low;
}

function judgeEmbedded(kind: string, high: number, low: number): string | null {
  const reason = classifyIpv4(embeddedIpv4(high, low));
  return reason ? `${kind} of a ${reason} IPv4 address` : null;
}

function classifyIpv6(groups: readonly number[]): string | null {
  const g = (index: number): number => groups[index] ?? 0;
  const zeroUpTo = (end: number): boolean => groups.slice(0, end).every((group) => group === 0);

  if (zeroUpTo(8)) return 'unspecified';
  if (zeroUpTo(7) && g(7) === 1) return 'loopback';
  // Forms that carry an IPv4 address are as dangerous as that address,
  // because the kernel or a translator on the path delivers to it.
  if (zeroUpTo(5) && g(5) === 0xffff) return judgeEmbedded('IPv4-mapped form', g(6), g(7));
  if (zeroUpTo(6)) return judgeEmbedded('IPv4-compatible form', g(6), g(7));
  if (zeroUpTo(4) && g(4) === 0xffff && g(5) === 0) return judgeEmbedded('IPv4-translated form', g(6), g(7));
  if (g(0) === 0x64 && g(1) === 0xff9b) {
    if (g(2) === 0 && g(3) === 0 && g(4) === 0 && g(5) === 0) return judgeEmbedded('NAT64 form', g(6), g(7));
    if (g(2) === 1) return 'local-use NAT64';
  }
  if (g(0) === 0x2002) return judgeEmbedded('6to4 form', g(1), g(2));

  const first = g(0);
  // Only 2000::/3 is allocated as global unicast; everything else is
  // link-local, unique-local, multicast or reserved.
  if ((first & 0xe000) !== 0x2000) {
    if ((first & 0xfe00) === 0xfc00) return 'unique local (private)';
    if ((first & 0xffc0) === 0xfe80) return 'link-local';
    if ((first & 0xffc0) === 0xfec0) return 'site-local';
    if ((first & 0xff00) === 0xff00) return 'multicast';
    return 'reserved (not global unicast)';
  }
  // 2001::/23 holds Teredo, benchmarking, ORCHID and other protocol
  // assignments; none is a place a webhook endpoint lives.
  if (first === 0x2001 && g(1) < 0x0200) return 'IETF protocol assignments';
  if (first === 0x2001 && g(1) === 0x0db8) return 'documentation';
  if ((first & 0xfff0) === 0x3ff0) return 'documentation';
  return null;
}

/**
 * Names the forbidden range an address literal falls in, or null when it is
 * ordinary public unicast. Anything that is not a plain address literal
 * (names, zone-scoped addresses, junk) is reported as forbidden: this check
 * fails closed.
 */
export function forbiddenAddressReason(ip: string): string | null {
  const family = isIP(ip);
  if (family === 4) return classifyIpv4(parseIpv4(ip));
  if (family === 6) {
    if (ip.includes('%')) return 'zone-scoped address';
    return classifyIpv6(parseIpv6Groups(ip.toLowerCase()));
  }
  return 'not an IP address literal';
}

/**
 * What a refusal of a name says: which host, never what it resolved to, since the answers of the
 * service's own resolver can describe its internal network.
 */
export function notPublicMessage(host: string): string {
  return `the address of ${host} is not allowed (private, loopback or reserved)`;
}

export function isForbiddenAddress(ip: string): boolean {
  return forbiddenAddressReason(ip) !== null;
}

/** `localhost` names never reach DNS: resolvers answer them locally (RFC 6761). */
export function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

export type NormalizedHost =
  | { kind: 'ip'; address: string; family: 4 | 6 }
  | { kind: 'name'; name: string };

/**
 * Canonical form of a URL host: an address when the host is an IP literal in
 * any spelling the WHATWG parser accepts (`127.1`, `0x7f000001`,
 * `[::ffff:127.0.0.1]`), otherwise the lower-cased name without a trailing
 * dot. Returns null when the text is not a valid host at all.
 */
export function normalizeHost(hostname: string): NormalizedHost | null {
  const bracketed = hostname.startsWith('[') && hostname.endsWith(']');
  const inner = bracketed ? hostname.slice(1, -1) : hostname;
  if (bracketed || isIP(inner) === 6) {
    if (isIP(inner) !== 6) return null;
    const canonical = parseHostWithUrl(`[${inner}]`);
    return canonical ? { kind: 'ip', address: canonical.slice(1, -1), family: 6 } : null;
  }
  // Anything that would make the URL parser read a port, path or userinfo
  // instead of a host is not a host.
  if (hostname === '' || /[/\\?#@:\s]/.test(hostname)) return null;
  const canonical = parseHostWithUrl(hostname);
  if (canonical === null) return null;
  if (isIP(canonical) === 4) return { kind: 'ip', address: canonical, family: 4 };
  return { kind: 'name', name: canonical.replace(/\.$/, '') };
}

// Reusing the WHATWG host parser means we agree exactly with how the URL we
// were given will be interpreted, including its numeric IPv4 shorthands.
function parseHostWithUrl(host: string): string | null {
  try {
    return new URL(`http://${host}/`).hostname;
  } catch {
    return null;
  }
}
