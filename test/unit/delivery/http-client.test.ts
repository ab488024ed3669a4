import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { closeAfterEach } from '../../support/open-servers.js';
import { parseRetryAfterMs, postWebhook, type PostWebhookOptions } from '../../../src/delivery/http-client.js';

type ReceivedRequest = { method: string; url: string; headers: IncomingMessage['headers']; body: Buffer };

type TestServer = { port: number; url: string; received: ReceivedRequest[] };

const track = closeAfterEach();

/** A real HTTP server on 127.0.0.1 that records each request before handing it to `respond`. */
async function startServer(respond: (req: IncomingMessage, res: ServerResponse) => void): Promise<TestServer> {
  const received: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      respond(req, res);
    });
  });
  track(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { port, url: `http://127.0.0.1:${port}`, received };
}

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

function post(overrides: Partial<PostWebhookOptions> & { url: string }): ReturnType<typeof postWebhook> {
  return postWebhook({
    body: Buffer.from('{"taskId":"t1"}'),
    headers: { 'Content-Type': 'application/json' },
    timeoutMs: 5_000,
    allowPrivate: true,
    ...overrides,
  });
}

describe('postWebhook against a local server', () => {
  it('POSTs the exact body with Content-Length and reports a 2xx', async () => {
    const server = await startServer((_req, res) => res.writeHead(202).end('accepted'));
    const body = Buffer.from('{"taskId":"t1","title":"ünïcode"}');

    const result = await post({
      url: `${server.url}/hooks/tasks?v=1`,
      body,
      headers: { 'Content-Type': 'application/json', 'X-Service-Task-Id': 't1', 'content-length': '1' },
    });

    expect(result).toMatchObject({ kind: 'response', status: 202, retryAfterMs: null });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    const [request] = server.received;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/hooks/tasks?v=1');
    expect(request?.body.equals(body)).toBe(true);
    // The caller's wrong length is replaced by the real byte length.
    expect(request?.headers['content-length']).toBe(String(body.length));
    expect(request?.headers['x-service-task-id']).toBe('t1');
  });

  it('reports a 500 as a response, with Retry-After in delta seconds', async () => {
    const server = await startServer((_req, res) => res.writeHead(500, { 'Retry-After': '120' }).end('boom'));
    expect(await post({ url: server.url })).toMatchObject({ kind: 'response', status: 500, retryAfterMs: 120_000 });
  });

  it('reads Retry-After given as an HTTP date', async () => {
    const server = await startServer((_req, res) =>
      res.writeHead(503, { 'Retry-After': new Date(Date.now() + 30_000).toUTCString() }).end(),
    );
    const result = await post({ url: server.url });
    expect(result.kind).toBe('response');
    if (result.kind !== 'response') return;
    expect(result.status).toBe(503);
    // HTTP dates have whole-second resolution.
    expect(result.retryAfterMs).toBeGreaterThan(28_000);
    expect(result.retryAfterMs).toBeLessThanOrEqual(30_000);
  });

  it('does not follow a redirect', async () => {
    const server = await startServer((req, res) => {
      if (req.url === '/start') res.writeHead(302, { Location: '/elsewhere' }).end();
      else res.writeHead(200).end();
    });
    expect(await post({ url: `${server.url}/start` })).toMatchObject({ kind: 'response', status: 302 });
    expect(server.received.map((request) => request.url)).toEqual(['/start']);
  });

  it('gives up with "timeout" when no answer comes in time', async () => {
    const server = await startServer(() => {
      // Never answer.
    });
    const result = await post({ url: server.url, timeoutMs: 150 });
    expect(result).toMatchObject({ kind: 'error', error: 'timeout' });
    expect(result.latencyMs).toBeGreaterThanOrEqual(140);
    expect(result.latencyMs).toBeLessThan(2_000);
  });

  it('keeps the status when the body is still trickling at the deadline', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200);
      res.write('partial');
    });
    expect(await post({ url: server.url, timeoutMs: 150 })).toMatchObject({ kind: 'response', status: 200 });
  });

  it('stops reading an endless response body instead of buffering it', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const pump = (): void => {
        if (!res.destroyed && res.write(chunk)) setImmediate(pump);
        else if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    const result = await post({ url: server.url, timeoutMs: 10_000 });
    expect(result).toMatchObject({ kind: 'response', status: 200 });
    expect(result.latencyMs).toBeLessThan(5_000);
  });

  it('reports a refused connection as an error', async () => {
    const port = await closedPort();
    const result = await post({ url: `http://127.0.0.1:${port}/` });
    expect(result.kind).toBe('error');
    if (result.kind === 'error') expect(result.error).toMatch(/ECONNREFUSED/);
  });

  it('names the cause when every resolved address refuses the connection', async () => {
    const port = await closedPort();
    const resolve = async (): Promise<string[]> => ['127.0.0.1', '127.0.0.1'];
    const result = await post({ url: `http://agent.example.test:${port}/`, resolve });
    expect(result.kind).toBe('error');
    if (result.kind === 'error') expect(result.error).toMatch(/ECONNREFUSED/);
  });

  it('reports a header value that cannot be sent as an error instead of throwing', async () => {
    const server = await startServer((_req, res) => res.writeHead(200).end());
    const result = await post({ url: server.url, headers: { 'X-Service-Callback': 'a\r\nInjected: yes' } });
    expect(result.kind).toBe('error');
    expect(server.received).toHaveLength(0);
  });

  it('refuses a URL of the wrong shape without dialling', async () => {
    expect(await post({ url: 'ftp://127.0.0.1/' })).toMatchObject({ kind: 'error' });
    expect(await post({ url: 'http://user:pw@127.0.0.1/' })).toMatchObject({ kind: 'error' });
  });
});

describe('postWebhook address policy (allowPrivate: false)', () => {
  it('refuses a 127.0.0.1 URL before any request reaches the server', async () => {
    const server = await startServer((_req, res) => res.writeHead(200).end());
    const result = await post({ url: server.url, allowPrivate: false });
    expect(result.kind).toBe('error');
    if (result.kind === 'error') expect(result.error).toMatch(/forbidden address 127\.0\.0\.1/);
    expect(server.received).toHaveLength(0);
  });

  it('refuses a localhost URL before resolving or dialling', async () => {
    const server = await startServer((_req, res) => res.writeHead(200).end());
    const resolve = vi.fn(async () => ['127.0.0.1']);
    const result = await post({ url: `http://localhost:${server.port}/`, allowPrivate: false, resolve });
    expect(result.kind).toBe('error');
    if (result.kind === 'error') expect(result.error).toMatch(/forbidden host localhost/);
    expect(resolve).not.toHaveBeenCalled();
    expect(server.received).toHaveLength(0);
  });

  it('refuses, at connect time, a name that resolves to 10.0.0.1', async () => {
    const resolve = vi.fn(async () => ['10.0.0.1']);
    const result = await post({ url: 'http://agent.example.test/hook', allowPrivate: false, resolve });
    expect(result.kind).toBe('error');
    if (result.kind === 'error') expect(result.error).toBe('the address of agent.example.test is not allowed (private, loopback or reserved)');
    // The refusal came from the socket's lookup, which is the only place the resolver is used.
    expect(resolve).toHaveBeenCalledWith('agent.example.test');
  });

  it('refuses a name when any one of its addresses is forbidden', async () => {
    const server = await startServer((_req, res) => res.writeHead(200).end());
    const resolve = async (): Promise<string[]> => ['93.184.216.34', '127.0.0.1'];
    const result = await post({ url: `http://agent.example.test:${server.port}/`, allowPrivate: false, resolve });
    expect(result).toMatchObject({ kind: 'error' });
    expect(server.received).toHaveLength(0);
  });

  it('refuses a name that does not resolve', async () => {
    const resolve = async (): Promise<string[]> => [];
    const result = await post({ url: 'http://nowhere.example.test/', allowPrivate: false, resolve });
    expect(result.kind).toBe('error');
    if (result.kind === 'error') expect(result.error).toMatch(/does not resolve/);
  });

  it('dials exactly the address the lookup checked', async () => {
    // With the policy off, a made-up name reaches the local server only
    // because the socket connects to what our resolver returned.
    const server = await startServer((_req, res) => res.writeHead(204).end());
    const resolve = vi.fn(async () => ['127.0.0.1']);
    const result = await post({ url: `http://agent.example.test:${server.port}/in`, allowPrivate: true, resolve });
    expect(result).toMatchObject({ kind: 'response', status: 204 });
    expect(resolve).toHaveBeenCalledWith('agent.example.test');
    expect(server.received[0]?.headers.host).toBe(`agent.example.test:${server.port}`);
  });
});

describe('parseRetryAfterMs', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it.each([
    ['0', 0],
    [' 5 ', 5_000],
    ['86400', 86_400_000],
    ['Thu, 01 Jan 2026 00:01:00 GMT', 60_000],
    ['Wed, 31 Dec 2025 23:00:00 GMT', 0],
  ])('reads %j as %d ms', (value, expected) => {
    expect(parseRetryAfterMs(value, now)).toBe(expected);
  });

  it.each([undefined, '', 'soon', '-5', '1.5', '2026-01-02'])('ignores %j', (value) => {
    expect(parseRetryAfterMs(value, now)).toBeNull();
  });
});
