// Reading a request's JSON body: a request that declares no body (neither Content-Length nor
// Transfer-Encoding) is answered without reading the stream, and every request that has one is read,
// whichever way it is framed.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBody, readJsonObject } from '../../../src/http/body.js';
import { isClientGone } from '../../../src/http/client-gone.js';

describe('readJsonObject', () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      readJsonObject(req).then(
        (body) => res.end(JSON.stringify({ body: body ?? null })),
        (error: Error) => res.end(JSON.stringify({ error: error.message })),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  // One request: `chunks` written without a Content-Length are sent chunked.
  const send = (method: string, headers: Record<string, string>, chunks: string[] = []) =>
    new Promise<unknown>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, method, path: '/', headers }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c));
        res.on('end', () => resolve(JSON.parse(text)));
      });
      req.on('error', reject);
      for (const chunk of chunks) req.write(chunk);
      req.end();
    });

  it('answers no body for a request that declares none', async () => {
    expect(await send('GET', {})).toEqual({ body: null });
  });

  it('reads a body framed by Content-Length', async () => {
    const text = JSON.stringify({ title: 'x' });
    expect(await send('POST', { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) }, [text])).toEqual({
      body: { title: 'x' },
    });
  });

  it('reads a chunked body, which has no Content-Length', async () => {
    expect(await send('POST', { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, ['{"title":', '"x"}'])).toEqual({
      body: { title: 'x' },
    });
  });
});

// Read by listeners (http/body.ts): a body that goes over the limit while it streams, and one whose client
// hangs up before it ends, fail as the stream's iterator made them fail.
describe('readBody, as a body streams in', () => {
  let server: http.Server;
  let port: number;
  const failures: Array<{ error: unknown; gone: boolean }> = [];
  let failed: () => void = () => {};
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      // A path of /late reads only after the client has gone (as a route that first looks its caller up).
      const read = req.url === '/late' ? new Promise((resolve) => req.socket.once('close', resolve)).then(() => readBody(req, 16)) : readBody(req, 16);
      read.then(
        (body) => res.end(String(body.length)),
        (error: unknown) => {
          failures.push({ error, gone: isClientGone(error, req) });
          failed();
          if (!res.destroyed) res.end();
        },
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const nextFailure = () => new Promise<{ error: unknown; gone: boolean }>((resolve) => (failed = () => resolve(failures.at(-1)!)));

  it('reads a chunked body within the limit whole', async () => {
    const length = await new Promise<string>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/', headers: { 'transfer-encoding': 'chunked' } }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c));
        res.on('end', () => resolve(text));
      });
      req.on('error', reject);
      req.write('12345678');
      req.end('12345678');
    });
    expect(length).toBe('16');
  });

  it('refuses a chunked body once it goes over the limit, and reads no further', async () => {
    const failure = nextFailure();
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/', headers: { 'transfer-encoding': 'chunked' } });
    req.on('error', () => {});
    req.write('x'.repeat(10));
    req.write('x'.repeat(10));
    const { error } = await failure;
    expect(error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    req.destroy();
  });

  // A POST to `path` that declares 12 bytes, sends 5 and hangs up: the failure its read met.
  async function cutShort(path: string) {
    const failure = nextFailure();
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path, headers: { 'content-length': '12' } });
    req.on('error', () => {});
    req.write('12345');
    await new Promise((resolve) => setTimeout(resolve, 50));
    req.destroy();
    return failure;
  }

  it('fails a body cut short as its client going away', async () => {
    expect((await cutShort('/')).gone).toBe(true);
  });

  it('fails a body whose client had gone before it was read', async () => {
    expect((await cutShort('/late')).gone).toBe(true);
  });
});
