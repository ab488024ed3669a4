// The caller's address, for the per-address rate limits. Behind reverse proxies the socket's peer is the
// nearest proxy, and each proxy appends the address it received the request from to X-Forwarded-For.
// With TRUSTED_PROXY_HOPS = N, the caller is the address N places from the right of the chain
// [...X-Forwarded-For, peer]: those entries were written by the trusted proxies, anything further left
// by the client itself (so a client cannot pick its own budget). With 0, the default, the header is
// ignored. An entry that is not an IP address (a proxy misconfigured) falls back to the peer.
import { isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';

export function clientAddress(req: IncomingMessage, trustedHops: number): string {
  const peer = req.socket.remoteAddress ?? '';
  if (trustedHops === 0) return peer;
  const header = req.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const chain = [...forwarded, peer];
  // Fewer entries than proxies: the request skipped the outer ones; the farthest address known is used.
  const candidate = chain[Math.max(0, chain.length - 1 - trustedHops)]!;
  return isIP(candidate) ? candidate : peer;
}
