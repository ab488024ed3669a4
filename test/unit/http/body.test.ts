// Reading a request's JSON body: a request that declares no body (neither Content-Length nor
// Transfer-Encoding) is answered without reading the stream, and every request that has one is read,
// whichever way it is framed.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJsonObject } from '../../../src/http/body.js';

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
