// Save-time checks of URLs an agent owner registers.
//
// The endpoint check resolves the name now to give the owner an early,
// readable refusal. It is not the security boundary: DNS can change between
// save and delivery, so guarded-request.ts checks again inside the connection's
// own lookup.

import { lookup } from 'node:dns/promises';
import { forbiddenAddressReason, isLocalhostName, normalizeHost, notPublicMessage } from './ip-policy.js';

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

export type ResolveHost = (hostname: string) => Promise<string[]>;

export type EndpointCheckOptions = {
  /** Development and tests only: skip every network-location check. */
  allowPrivate: boolean;
  resolve?: ResolveHost;
};

/** System resolver, all addresses in the order the OS returns them. */
export const resolveWithSystemDns: ResolveHost = async (hostname) => {
  const addresses = await lookup(hostname, { all: true, verbatim: true });
  return addresses.map((entry) => entry.address);
};

// The URL parser silently drops tabs and newlines and accepts `http:host`
// without slashes; requiring the plain form means the text an owner sees is
// the URL that gets dialled.
const ABSOLUTE_HTTP_PREFIX = /^https?:\/\//i;

function hasWhitespaceControlOrBackslash(text: string): boolean {
  if (/[\s\\]/.test(text)) return true;
  return Array.from(text).some((char) => {
    const code = char.charCodeAt(0);
    return code < 0x20 || code === 0x7f;
  });
}

/** Absolute http(s) URL with a host and no credentials. Does not touch the network. */
export function checkUrlShape(raw: string): UrlCheck {
  if (!ABSOLUTE_HTTP_PREFIX.test(raw)) {
    return { ok: false, reason: 'URL must be absolute and start with http:// or https://' };
  }
  if (hasWhitespaceControlOrBackslash(raw)) {
    return { ok: false, reason: 'URL must not contain whitespace, control characters or backslashes' };
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'URL is not valid' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, reason: 'URL scheme must be http or https' };
  }
  if (url.username !== '' || url.password !== '') {
    return { ok: false, reason: 'URL must not contain credentials' };
  }
  if (url.hostname === '') {
    return { ok: false, reason: 'URL must have a host' };
  }
  return { ok: true, url };
}

/**
 * A URL the service may deliver webhooks to: the shape checks, then (unless
 * allowPrivate) the host must be a public address or a name whose every
 * resolved address is public.
 */
export async function checkEndpointUrl(raw: string, opts: EndpointCheckOptions): Promise<UrlCheck> {
  const shape = checkUrlShape(raw);
  if (!shape.ok || opts.allowPrivate) return shape;

  const host = normalizeHost(shape.url.hostname);
  if (host === null) return { ok: false, reason: 'URL host is not valid' };

  if (host.kind === 'ip') {
    const reason = forbiddenAddressReason(host.address);
    return reason ? { ok: false, reason: `address ${host.address} is not allowed: ${reason}` } : shape;
  }

  if (isLocalhostName(host.name)) {
    return { ok: false, reason: `host ${host.name} is local and not allowed` };
  }

  const resolve = opts.resolve ?? resolveWithSystemDns;
  let addresses: string[];
  try {
    addresses = await resolve(host.name);
  } catch {
    return { ok: false, reason: `host ${host.name} does not resolve` };
  }
  if (addresses.length === 0) {
    return { ok: false, reason: `host ${host.name} does not resolve` };
  }
  // One bad address is enough: the connection may pick any of them. The refusal names the host, not
  // the address it resolved to.
  if (addresses.some((address) => forbiddenAddressReason(address) !== null)) {
    return { ok: false, reason: notPublicMessage(host.name) };
  }
  return shape;
}
