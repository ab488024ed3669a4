// Guarded exchanges keep their sockets alive per set of checked addresses (delivery/checked-sockets.ts):
// a second exchange with the same host reuses the connection, the address check still runs first, and an
// answer cut short does not leave its socket for the next exchange.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { guardedRequest } from '../src/delivery/guarded-request.js';

let server: http.Server;
let base: string;
let connections = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    // The big answer is far more than the sockets' buffers hold, so it is still arriving when the client
    // cuts it: a socket whose answer had all arrived could go back to the pool, and rightly so.
    req.on('end', () => res.end(req.url === '/big' ? Buffer.alloc(8 * 1024 * 1024) : 'ok'));
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const get = (url: string, opts: { allowPrivate?: boolean; resolve?: (host: string) => Promise<string[]>; maxResponseBytes?: number } = {}) =>
  guardedRequest({ method: 'GET', url, headers: {}, timeoutMs: 5_000, maxResponseBytes: opts.maxResponseBytes ?? 1024, allowPrivate: opts.allowPrivate ?? true, resolve: opts.resolve });

test('exchanges with one host in a row share one connection', async () => {
  const before = connections;
  for (let i = 0; i < 3; i++) expect(await get(`${base}/`)).toMatchObject({ kind: 'response', status: 200 });
  expect(connections - before).toBe(1);
});

test('a kept socket does not let a host past the address check', async () => {
  expect(await get(`${base}/`)).toMatchObject({ kind: 'response', status: 200 });
  const port = new URL(base).port;
  // The same address under a name, guarded: refused before any socket is taken.
  const refused = await get(`http://agent.example:${port}/`, { allowPrivate: false, resolve: async () => ['127.0.0.1'] });
  expect(refused).toMatchObject({ kind: 'error' });
  expect((refused as { error: string }).error).toMatch(/agent\.example/);
});

test('an answer cut at the size limit closes its connection', async () => {
  expect(await get(`${base}/`)).toMatchObject({ kind: 'response', status: 200 });
  const before = connections;
  // Sent on the kept socket, which is then cut: the next exchange dials a new one.
  expect(await get(`${base}/big`, { maxResponseBytes: 100 })).toMatchObject({ kind: 'response', status: 200 });
  expect(connections - before).toBe(0);
  expect(await get(`${base}/`)).toMatchObject({ kind: 'response', status: 200 });
  expect(connections - before).toBe(1);
});
