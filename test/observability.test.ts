// What an operator sees: Prometheus metrics that move when work happens, one access line per request
// carrying the request id, the id on every other line of that request, and warnings for failed deliveries.
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logLines } from './support/fixtures.js';
import { startTestServer, type TestServer } from './support/server.js';
import { callBack, startTestAgent, waitForStatus, type TestAgent } from './support/agent.js';
import { until } from './support/wait.js';
import { createLogger } from '../src/logger.js';
import { runInRequest } from '../src/request-context.js';

type Line = Record<string, unknown> & { msg: string; level: number };
const { lines, stream: capture } = logLines<Line>();

let server: TestServer;
let agent: TestAgent;
let user: { id: string; apiKey: string };

beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: 'info', DELIVERY_MAX_ATTEMPTS: '1' }, { logStream: capture });
  agent = await startTestAgent();
  user = await server.createUser();
});
afterAll(async () => {
  await server?.close();
  await agent?.close();
});

// Prometheus text format: `name{label="value",…} number`, parsed without help from the code under test.
function parseMetrics(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})? (-?[0-9.e+-]+|nan|[+-]?inf)$/i.exec(line);
    if (!match) throw new Error(`not Prometheus text: ${line}`);
    samples.set(match[1]! + (match[2] ?? ''), Number(match[3]));
  }
  return samples;
}

async function scrape(): Promise<Map<string, number>> {
  const res = await fetch(`${server.url}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseMetrics(await res.text());
}
const value = (m: Map<string, number>, key: string) => m.get(key) ?? 0;

describe('/metrics', () => {
  it('parses as Prometheus text and its counters move as requests, tasks, jobs, deliveries and searches happen', async () => {
    const before = await scrape();
    const agentId = (await server.api.post('/v1/agents', { key: user.apiKey, body: { name: 'Metered', endpoint: agent.url, priceCents: 0 } })).body.data.id;
    agent.onDelivery((d) => void callBack(d, { result: { ok: true } }));
    const task = (await server.api.post('/v1/tasks', { key: user.apiKey, body: { title: 't', description: 'd', agentId } })).body.data;
    await waitForStatus(() => server.api.get(`/v1/tasks/${task.id}`, { key: user.apiKey }).then((r) => r.body.data), ['completed']);
    await server.api.get('/v1/discover?q=metered');
    await server.api.get('/v1/tasks/tsk_nope', { key: user.apiKey });

    const after = await until('the delivery job to be counted', async () => {
      const m = await scrape();
      return value(m, 'jobs_total{kind="task.deliver",outcome="success"}') > value(before, 'jobs_total{kind="task.deliver",outcome="success"}') && m;
    });
    const moved = (key: string) => value(after, key) - value(before, key);
    // Route templates, not raw paths: the task id is not a label value.
    expect(moved('http_requests_total{method="POST",route="/v1/tasks",status="201"}')).toBe(1);
    expect(moved('http_requests_total{method="GET",route="/v1/tasks/:id",status="404"}')).toBe(1);
    expect([...after.keys()].some((k) => k.includes('tsk_'))).toBe(false);
    expect(moved('http_request_duration_seconds_count{method="POST",route="/v1/tasks"}')).toBe(1);
    expect(moved('task_status_changes_total{status="matched"}')).toBe(1);
    expect(moved('task_status_changes_total{status="completed"}')).toBe(1);
    expect(moved('deliveries_total{outcome="delivered"}')).toBe(1);
    expect(moved('delivery_duration_seconds_count')).toBe(1);
    expect(moved('search_duration_seconds_count{engine="postgres"}')).toBe(1);
    expect(after.has('job_queue_due')).toBe(true);
    expect(after.has('job_queue_oldest_due_seconds')).toBe(true);
  });

  it('counts payment steps and shows due jobs in the queue gauges', async () => {
    const before = await scrape();
    await server.api.post('/v1/billing/setup-intent', { key: user.apiKey });
    // A job due now that no worker knows: it stays in the queue, so the gauges must see it.
    await server.prisma.$executeRaw`SELECT graphile_worker.add_job('metrics.test.unknown', '{}'::json, run_at => now() - interval '1 minute')`;
    const after = await scrape();
    expect(value(after, 'payment_steps_total{step="createSetupIntent",outcome="ok"}') - value(before, 'payment_steps_total{step="createSetupIntent",outcome="ok"}')).toBe(1);
    expect(value(after, 'job_queue_due')).toBeGreaterThanOrEqual(1);
    expect(value(after, 'job_queue_oldest_due_seconds')).toBeGreaterThanOrEqual(59);
    await server.prisma.$executeRaw`DELETE FROM graphile_worker._private_jobs WHERE task_id = (SELECT id FROM graphile_worker._private_tasks WHERE identifier = 'metrics.test.unknown')`;
  });
});

describe('/metrics with METRICS_TOKEN', () => {
  it('answers only the bearer of the token, with 401 and a coded error otherwise', async () => {
    const token = 'scrape-token-0123456789abcdef';
    const guarded = await startTestServer({ METRICS_TOKEN: token });
    try {
      const scrapeWith = (authorization?: string) => fetch(`${guarded.url}/metrics`, { headers: authorization ? { authorization } : {} });
      for (const authorization of [undefined, 'Bearer wrong-token-0123456789abcdef', `Basic ${token}`, `Bearer ${token}x`]) {
        const refused = await scrapeWith(authorization);
        expect(refused.status, authorization).toBe(401);
        expect(refused.headers.get('www-authenticate')).toBe('Bearer');
        expect((await refused.json()).error.code).toBe('UNAUTHENTICATED');
      }
      const allowed = await scrapeWith(`Bearer ${token}`);
      expect(allowed.status).toBe(200);
      expect(await allowed.text()).toContain('http_requests_total');
    } finally {
      await guarded.close();
    }
  });
});

describe('logs', () => {
  it('writes one access line per request with method, route, status, time, request id and principal', async () => {
    const res = await fetch(`${server.url}/v1/agents?token=secret-in-query`, { headers: { authorization: `Bearer ${user.apiKey}`, 'x-request-id': 'trace-abc.123' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('trace-abc.123');
    const line = await until('the access line', () => lines.find((l) => l.msg === 'request' && l.reqId === 'trace-abc.123'));
    expect(line).toMatchObject({ method: 'GET', route: '/v1/agents', status: 200, principal: user.id, level: 30 });
    expect(typeof line.ms).toBe('number');
    expect(lines.filter((l) => l.reqId === 'trace-abc.123' && l.msg === 'request')).toHaveLength(1);
    const text = JSON.stringify(lines);
    expect(text).not.toContain('secret-in-query');
    expect(text).not.toContain(user.apiKey);
  });

  it('generates a request id when none (or an unsafe one) is sent, and echoes it', async () => {
    const plain = await fetch(`${server.url}/healthz`);
    expect(plain.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const unsafe = await fetch(`${server.url}/healthz`, { headers: { 'x-request-id': 'a"b\\c' + 'x'.repeat(200) } });
    const id = unsafe.headers.get('x-request-id')!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await until('the access line', () => lines.find((l) => l.msg === 'request' && l.reqId === id && l.route === '/healthz'));
  });

  it('puts the request id on every line written while serving the request', async () => {
    const own: Line[] = [];
    const logger = createLogger('info', { stream: new Writable({ write: (c: Buffer, _e, done) => (own.push(JSON.parse(c.toString('utf8')) as Line), done()) }) });
    await runInRequest({ requestId: 'inner-1', route: null, principalId: null }, async () => {
      // A timer hop, as a service's awaited I/O makes: the request's context must survive it (what is under test).
      await new Promise((r) => setTimeout(r, 1));
      logger.warn({ detail: 1 }, 'deep inside a service');
    });
    logger.info('outside any request');
    expect(own).toMatchObject([{ msg: 'deep inside a service', reqId: 'inner-1' }, { msg: 'outside any request' }]);
    expect(own[1]).not.toHaveProperty('reqId');
  });

  it('writes the service\'s lines to standard output synchronously, not through the thread pool', () => {
    // An asynchronous destination hands every line to libuv's thread pool: a wake of a pool thread and of
    // the event loop per access line (bench/log-destination.ts).
    const destination = (createLogger('info') as unknown as Record<symbol, { sync?: boolean; fd?: number }>)[pino.symbols.streamSym];
    expect(destination).toMatchObject({ sync: true, fd: 1 });
  });

  it('warns about each failed delivery attempt and the task given up', async () => {
    const failing = await startTestAgent();
    failing.respondWith([503]);
    try {
      const agentId = (await server.api.post('/v1/agents', { key: user.apiKey, body: { name: 'Down', endpoint: failing.url, priceCents: 0 } })).body.data.id;
      const task = (await server.api.post('/v1/tasks', { key: user.apiKey, body: { title: 't', description: 'd', agentId } })).body.data;
      const warn = await until('the give-up warning', () => lines.find((l) => l.level === 40 && l.taskId === task.id && l.outcome === 'given_up'));
      expect(warn).toMatchObject({ msg: 'delivery given up; the task fails', agentId, statusCode: 503 });
      expect(JSON.stringify(warn)).not.toMatch(/taskToken|tmk_/);
    } finally {
      await failing.close();
    }
  });
});
