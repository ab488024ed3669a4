// The fuzz of scripts/fuzz.ts (npm run fuzz) against the service, as CI's guard that malformed input at
// every REST route, GraphQL over HTTP, SSE and WebSocket, and signed processor events never answers 500
// or INTERNAL, and that every 400 names its field. And a control: the fuzz does report a server that
// breaks those rules.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runFuzz } from '../scripts/fuzz.js';
import { startTestServer, type TestServer } from './support/server.js';

const webhookSecret = 'whsec_fuzz_test_secret_0123456789';
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ STRIPE_WEBHOOK_SECRET: webhookSecret });
});
afterAll(() => server?.close());

it('finds no 500, no INTERNAL and no 400 without a field anywhere', async () => {
  const { apiKey } = await server.createUser();
  const report = await runFuzz({ url: server.url, key: apiKey, webhookSecret, maxRequests: 5000, seconds: 240 });
  expect(report.findings).toEqual([]);
  expect(report.stoppedEarly).toBe(false);
  // It reached past authentication and validation: most answers are coded refusals.
  expect(report.requests).toBeGreaterThan(1000);
  expect(report.byStatus['400']).toBeGreaterThan(500);
}, 300_000);

it('reports a server that answers 500, INTERNAL or a 400 without a field', async () => {
  const broken = http.createServer((req, res) => {
    if (req.url === '/v1/openapi.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ paths: { '/v1/things/{id}': { get: {}, post: { requestBody: { content: { 'application/json': { schema: { properties: { name: {} } } } } } } } } }));
      return;
    }
    const status = req.method === 'POST' ? 400 : 500;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: status === 500 ? 'INTERNAL' : 'INVALID_INPUT', message: 'broken' } }));
  });
  await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
  try {
    const report = await runFuzz({ url: `http://127.0.0.1:${(broken.address() as AddressInfo).port}`, maxRequests: 60, seconds: 30 });
    const problems = new Set(report.findings.map((f) => f.problem));
    expect(problems).toContain('answered 500');
    expect(problems).toContain('carries INTERNAL');
    expect(problems).toContain('a 400 without a field');
  } finally {
    await new Promise((resolve) => broken.close(resolve));
  }
}, 60_000);

it('refuses to aim at anything but loopback', async () => {
  await expect(runFuzz({ url: 'http://203.0.113.7:4000' })).rejects.toThrow(/loopback/);
});
