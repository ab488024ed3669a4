// A kept body cut at the size limit is reported over the limit and incomplete, and stays so after the
// answer settled (the response's queued events once marked a cut body complete: an A2A card import in CI
// read "not JSON" instead of "larger than"); a body that fits arrives whole.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { closeAfterEach } from '../../support/open-servers.js';
import { guardedRequest } from '../../../src/delivery/guarded-request.js';

const track = closeAfterEach();

async function serving(body: string): Promise<string> {
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
  track(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/card.json`;
}

const fetchKept = (url: string, maxResponseBytes: number) =>
  guardedRequest({ method: 'GET', url, headers: {}, timeoutMs: 5_000, maxResponseBytes, keepBody: true, allowPrivate: true });

describe('guardedRequest kept body', () => {
  it('is over the limit and not complete when the answer is larger than maxResponseBytes', async () => {
    const url = await serving(JSON.stringify({ text: 'x'.repeat(300 * 1024) }));
    for (let round = 0; round < 20; round++) {
      const result = await fetchKept(url, 64 * 1024);
      expect(result.kind).toBe('response');
      if (result.kind !== 'response') return;
      expect(result.body).toMatchObject({ complete: false, overLimit: true });
      // Still not complete once the rest of the answer has had time to arrive.
      await new Promise((resolve) => setImmediate(resolve));
      expect(result.body).toMatchObject({ complete: false, overLimit: true });
    }
  });

  it('is complete, with every byte, when the answer fits', async () => {
    const text = JSON.stringify({ text: 'y'.repeat(10 * 1024) });
    const result = await fetchKept(await serving(text), 64 * 1024);
    expect(result.kind === 'response' && result.body).toMatchObject({ complete: true, overLimit: false });
    if (result.kind === 'response') expect(result.body!.bytes.toString('utf8')).toBe(text);
  });
});
