// What a guarded exchange decides from its URL alone (delivery/guarded-request.ts) is kept per URL text:
// the verdict holds for that URL under that address policy only, a host name's addresses are still
// resolved and checked on every exchange, and the body's length is framed whatever the caller's headers say.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { guardedRequest } from '../src/delivery/guarded-request.js';

let server: http.Server;
let port: number;
const received: { length: string | undefined; body: string }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (c: string) => (body += c));
    req.on('end', () => {
      received.push({ length: req.headers['content-length'], body });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const post = (url: string, opts: { allowPrivate: boolean; resolve?: (host: string) => Promise<string[]>; headers?: Record<string, string>; body?: string }) =>
  guardedRequest({
    method: 'POST',
    url,
    headers: opts.headers ?? {},
    body: Buffer.from(opts.body ?? '{}'),
    timeoutMs: 5_000,
    maxResponseBytes: 1024,
    allowPrivate: opts.allowPrivate,
    resolve: opts.resolve,
  });

test('a URL let through with private addresses allowed is still refused under the policy', async () => {
  const url = `http://127.0.0.1:${port}/hook`;
  expect(await post(url, { allowPrivate: true })).toMatchObject({ kind: 'response', status: 200 });
  expect(await post(url, { allowPrivate: false })).toEqual({ kind: 'error', error: expect.stringMatching(/^forbidden address 127\.0\.0\.1/), latencyMs: expect.any(Number) });
  expect(await post(url, { allowPrivate: false })).toMatchObject({ kind: 'error' });
  expect(await post(url, { allowPrivate: true })).toMatchObject({ kind: 'response', status: 200 });
});

test('a refused URL stays refused, and a malformed one says why each time', async () => {
  for (let i = 0; i < 2; i++) {
    expect(await post(`http://localhost:${port}/`, { allowPrivate: false })).toMatchObject({ kind: 'error', error: 'forbidden host localhost: local name' });
    expect(await post(`http://user:pw@127.0.0.1:${port}/`, { allowPrivate: true })).toMatchObject({ kind: 'error', error: 'URL must not contain credentials' });
  }
});

test('an IP literal is not resolved; a host name is resolved and checked on every exchange', async () => {
  const asked: string[] = [];
  const resolveTo = (address: string) => async (host: string) => {
    asked.push(host);
    return [address];
  };
  expect(await post(`http://127.0.0.1:${port}/`, { allowPrivate: true, resolve: resolveTo('127.0.0.1') })).toMatchObject({ kind: 'response', status: 200 });
  expect(asked).toEqual([]);
  const named = `http://agent.example:${port}/`;
  expect(await post(named, { allowPrivate: true, resolve: resolveTo('127.0.0.1') })).toMatchObject({ kind: 'response', status: 200 });
  // The same name under the policy: its answer of this exchange is checked, and refused by name.
  expect(await post(named, { allowPrivate: false, resolve: resolveTo('127.0.0.1') })).toMatchObject({ kind: 'error', error: expect.stringMatching(/agent\.example/) });
  expect(await post(named, { allowPrivate: false, resolve: resolveTo('10.0.0.1') })).toMatchObject({ kind: 'error', error: expect.stringMatching(/agent\.example/) });
  expect(asked).toEqual(['agent.example', 'agent.example', 'agent.example']);
});

test('the body is framed by its own length, whatever length the caller named', async () => {
  received.length = 0;
  const url = `http://127.0.0.1:${port}/framed`;
  await post(url, { allowPrivate: true, body: '{"a":1}', headers: { 'Content-Type': 'application/json' } });
  await post(url, { allowPrivate: true, body: '{"a":1}', headers: { 'content-length': '999', 'Transfer-Encoding': 'chunked' } });
  expect(received).toEqual([
    { length: '7', body: '{"a":1}' },
    { length: '7', body: '{"a":1}' },
  ]);
});
