// Which address a request is counted under, with and without trusted proxies in front.
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientAddress } from '../../../src/http/client-address.js';

const request = (peer: string, forwardedFor?: string | string[]) =>
  ({ socket: { remoteAddress: peer }, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } }) as unknown as IncomingMessage;

describe('clientAddress', () => {
  it('is the peer when no proxy is trusted, whatever the header says', () => {
    expect(clientAddress(request('10.0.0.5', '203.0.113.9'), 0)).toBe('10.0.0.5');
  });

  it('counts trusted hops from the right of the chain, the peer included', () => {
    const req = request('10.0.0.5', '198.51.100.1, 203.0.113.9, 10.0.0.4');
    expect(clientAddress(req, 1)).toBe('10.0.0.4');
    expect(clientAddress(req, 2)).toBe('203.0.113.9');
    expect(clientAddress(req, 3)).toBe('198.51.100.1');
  });

  it('reads repeated headers as one list, and takes the farthest entry when there are fewer than the hops', () => {
    expect(clientAddress(request('10.0.0.5', ['198.51.100.1', '203.0.113.9']), 1)).toBe('203.0.113.9');
    expect(clientAddress(request('10.0.0.5', '203.0.113.9'), 4)).toBe('203.0.113.9');
    expect(clientAddress(request('10.0.0.5'), 1)).toBe('10.0.0.5');
  });

  it('falls back to the peer for an entry that is not an address', () => {
    expect(clientAddress(request('10.0.0.5', 'unknown'), 1)).toBe('10.0.0.5');
    expect(clientAddress(request('10.0.0.5', '2001:db8::1'), 1)).toBe('2001:db8::1');
  });
});
