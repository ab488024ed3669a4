// Health probes dial through the same guarded request as deliveries: a name that resolves to a private
// address is refused inside the socket's lookup unless private endpoints are allowed.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { closeAfterEach } from '../../support/open-servers.js';
import { probeUrl } from '../../../src/delivery/probe.js';

const track = closeAfterEach();

/** A manifest server on 127.0.0.1 that counts the requests reaching it. */
async function startManifestServer(): Promise<{ port: number; hits: () => number }> {
  let hits = 0;
  const server = createServer((_req, res) => {
    hits += 1;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  track(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { port: (server.address() as AddressInfo).port, hits: () => hits };
}

describe('probeUrl address policy', () => {
  it('refuses, in the lookup, a name that resolves to a private address when private endpoints are not allowed', async () => {
    const manifest = await startManifestServer();
    const resolve = vi.fn(async () => ['127.0.0.1']);
    const result = await probeUrl({ url: `http://agent.example.test:${manifest.port}/manifest`, timeoutMs: 2_000, allowPrivate: false, resolve });
    expect(result.kind).toBe('error');
    // The same wording as a refused delivery: both come from the guarded lookup.
    if (result.kind === 'error') expect(result.error).toBe('the address of agent.example.test is not allowed (private, loopback or reserved)');
    expect(resolve).toHaveBeenCalledWith('agent.example.test');
    expect(manifest.hits()).toBe(0);
  });

  it('reaches the same server through the same name when private endpoints are allowed', async () => {
    const manifest = await startManifestServer();
    const resolve = async () => ['127.0.0.1'];
    const result = await probeUrl({ url: `http://agent.example.test:${manifest.port}/manifest`, timeoutMs: 2_000, allowPrivate: true, resolve });
    expect(result).toMatchObject({ kind: 'response', status: 200 });
    expect(manifest.hits()).toBe(1);
  });

  it('refuses a private address literal without dialling it', async () => {
    const result = await probeUrl({ url: 'http://10.0.0.7/manifest', timeoutMs: 2_000, allowPrivate: false });
    expect(result).toMatchObject({ kind: 'error', error: expect.stringMatching(/forbidden address 10\.0\.0\.7: private/) as unknown });
  });
});
