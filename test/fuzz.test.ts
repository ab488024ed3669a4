// The fuzz of scripts/fuzz.ts (npm run fuzz) against the service, as CI's guard that malformed input at
// every REST route, GraphQL over HTTP, SSE and WebSocket, signed processor events, A2A (both versions),
// the agent cards, MCP and the A2A push callback never answers 500, INTERNAL, a JSON-RPC -32603 or
// internal text, and that every REST 400 names its field. And controls: the fuzz does report a server
// that breaks those rules, and its command line answers --help with its usage.
import { execFile } from 'node:child_process';
import http from 'node:http';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { runFuzz } from '../scripts/fuzz.js';
import { logLines, testWith } from './support/fixtures.js';
import type { TestServer } from './support/server.js';

const webhookSecret = 'whsec_fuzz_test_secret_0123456789';
let server: TestServer;

// The service's error lines: malformed input is the client's doing, never an error of the service's.
const { lines: errorLines, stream: capture } = logLines();

const test = testWith({ serverEnv: { STRIPE_WEBHOOK_SECRET: webhookSecret, LOG_LEVEL: 'error' }, serverLog: capture });

test.beforeAll(async ({ server: s }) => {
  server = s;
});

it('finds no 500, no INTERNAL and no 400 without a field anywhere', async () => {
  const { apiKey } = await server.createUser();
  const report = await runFuzz({ url: server.url, key: apiKey, webhookSecret, maxRequests: 5000, seconds: 240, quick: true });
  expect(report.findings).toEqual([]);
  expect(report.stoppedEarly).toBe(false);
  expect(errorLines.map((l) => ({ msg: l.msg, err: (l.err as { message?: string } | undefined)?.message }))).toEqual([]);
  // It reached past authentication and validation: most answers are coded refusals.
  expect(report.requests).toBeGreaterThan(1000);
  expect(report.byStatus['400']).toBeGreaterThan(500);
  // Every protocol endpoint was reached, past authentication where it has one.
  for (const target of [
    'A2A /a2a (1.0)',
    'A2A /a2a (0.3)',
    'A2A /a2a (no A2A-Version)',
    'A2A /a2a/agents/{slug} (1.0)',
    'A2A /a2a/agents/{slug} (0.3)',
    'A2A agent cards',
    'MCP /mcp',
    'MCP tool create_task',
    'A2A push POST /v1/tasks/{id}/callback',
    'POST /v1/auth/sign-up/options',
    'POST /v1/auth/email-link/sign-in',
    'POST /v1/auth/api-key-session',
    'OAuth /oauth/register',
    'OAuth /oauth/token',
    'OAuth /oauth/revoke',
    'POST /v1/files (no credentials)',
    'POST /v1/files (forged link)',
    'POST /v1/files (key)',
    'POST /v1/files (signed link)',
    'POST /v1/tasks/{id}/files (junk token)',
    'POST /v1/tasks/{id}/files (task token)',
  ]) {
    expect(report.byTarget[target], target).toBeGreaterThan(5);
  }
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

it('reports a JSON-RPC endpoint that answers -32603 or shows internal text', async () => {
  const broken = http.createServer((req, res) => {
    if (req.url === '/v1/openapi.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ paths: {} }));
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    const message = req.url === '/mcp' ? 'MCP error -32602: MCP error -32602: bad' : "Cannot read properties of null (reading 'text')";
    res.end(JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: req.url === '/mcp' ? -32602 : -32603, message } }));
  });
  await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
  try {
    const report = await runFuzz({ url: `http://127.0.0.1:${(broken.address() as AddressInfo).port}`, maxRequests: 3000, seconds: 60 });
    const problems = (target: RegExp) => new Set(report.findings.filter((f) => target.test(f.target)).map((f) => f.problem));
    expect(problems(/^A2A \/a2a \(1\.0\)/)).toEqual(new Set(['answered -32603', 'shows internal text']));
    expect(problems(/^A2A \/a2a \(0\.3\)/)).toEqual(new Set(['answered -32603', 'shows internal text']));
    expect(problems(/^MCP \/mcp/)).toEqual(new Set(['shows internal text']));
    expect(problems(/push/)).toContain('shows internal text');
  } finally {
    await new Promise((resolve) => broken.close(resolve));
  }
}, 90_000);

it('prints its usage for --help and a plain message for bad options, never a stack', async () => {
  const run = promisify(execFile);
  const help = await run(process.execPath, ['--import', 'tsx', 'scripts/fuzz.ts', '--help']);
  expect(help.stdout).toMatch(/^npm run fuzz -- \[--url/);
  expect(help.stdout).toContain('--max-requests');
  expect(help.stderr).toBe('');
  const bad = await run(process.execPath, ['--import', 'tsx', 'scripts/fuzz.ts', '--nonsense']).then(
    () => null,
    (error: { code: number; stderr: string }) => error,
  );
  expect(bad?.code).toBe(2);
  expect(bad?.stderr).toMatch(/Unknown option '--nonsense'/);
  expect(bad?.stderr).not.toMatch(/\bat .*:\d+:\d+/);
}, 60_000);

it('refuses to aim at anything but loopback', async () => {
  await expect(runFuzz({ url: 'http://203.0.113.7:4000' })).rejects.toThrow(/loopback/);
});
