// A deadline shared by several exchanges (a card import's) ends an exchange when its signal aborts, as
// its own timeout would (an answer already begun is kept, as for the timeout: guarded-request.ts).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { closeAfterEach } from '../../support/open-servers.js';
import { guardedRequest } from '../../../src/delivery/guarded-request.js';

const track = closeAfterEach();

// A server that never answers; `asked` is called once it has the request.
async function hanging(asked: () => void): Promise<string> {
  const server = createServer(() => asked());
  track(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/keys.json`;
}

const fetchUntil = (url: string, signal: AbortSignal) => guardedRequest({ method: 'GET', url, headers: {}, signal, maxResponseBytes: 1024, keepBody: true, allowPrivate: true });

describe('guardedRequest with a signal', () => {
  it('ends as a timeout when the signal aborts before any answer', async () => {
    const deadline = new AbortController();
    const url = await hanging(() => deadline.abort());
    const result = await fetchUntil(url, deadline.signal);
    expect(result).toMatchObject({ kind: 'error', error: 'timeout' });
  });

  it('does not even send the request when the signal has already aborted', async () => {
    let asked = false;
    const url = await hanging(() => (asked = true));
    const result = await fetchUntil(url, AbortSignal.abort());
    expect(result).toMatchObject({ kind: 'error', error: 'timeout' });
    expect(asked).toBe(false);
  });
});
