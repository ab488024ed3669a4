// Endpoint health: an endpoint that fails for a while goes failing → disabled (after
// ENDPOINT_DISABLE_AFTER_FAILURES attempts spanning ENDPOINT_DISABLE_AFTER_SECONDS), gets no deliveries
// while disabled, and after a test ping and enable is active again; each operational event reaches the
// owner's notificationUrl once, signed (checked with the standardwebhooks library), retried on failure.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { defaultRetrySchedule } from '../src/delivery/backoff.js';
import { startTestAgent, waitForStatus, type TestAgent } from './support/agent.js';
import { runNextNow, untilNoJobDue } from './support/jobs.js';
import { testWith } from './support/fixtures.js';
import type { TestServer } from './support/server.js';
import { until } from './support/wait.js';

let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };

interface Received {
  headers: http.IncomingHttpHeaders;
  raw: string;
  status: number;
}

let server: TestServer;
let owner: { apiKey: string };
let bob: { apiKey: string };
let requester: { apiKey: string };
let agent: TestAgent;
let agentId: string;
let receiver: http.Server;
let receiverUrl: string;
const received: Received[] = [];
// The receiver's answers in order; the last repeats.
const receiverStatuses = [500, 200];
let notificationSecret: string;

const test = testWith({
  serverEnv: { ENDPOINT_DISABLE_AFTER_FAILURES: '3', ENDPOINT_DISABLE_AFTER_SECONDS: '3600', DELIVERY_MAX_ATTEMPTS: '20' },
  serverTime: { clock, retrySchedule: { ...defaultRetrySchedule, delaysMs: [60_000] } },
});

test.beforeAll(async ({ server: s, owner: o, requester: r }) => {
  [server, owner, requester] = [s, o, r];
  bob = await server.createUser();
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const status = receiverStatuses[Math.min(received.length, receiverStatuses.length - 1)]!;
      received.push({ headers: req.headers, raw: Buffer.concat(chunks).toString('utf8'), status });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/ops`;
  agent = await startTestAgent();
  agentId = (await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Shaky', endpoint: agent.url, capabilities: ['shaky'] } })).body.data.id;
});
afterAll(async () => {
  await agent?.close();
  await new Promise((r) => receiver?.close(r));
});

const getAgent = () => server.api.get(`/v1/agents/${agentId}`, { key: owner.apiKey }).then((r) => r.body.data);
const attempts = async () => (await server.prisma.deliveryAttempt.count({ where: { delivery: { agentId } } }));
// Successful receipts of operational events, by type.
const delivered = () => received.filter((r) => r.status === 200).map((r) => JSON.parse(r.raw) as { type: string; data: Record<string, unknown> });

// Checked as of when it was signed (the test moved the service's clock since), synchronously.
function verifies(r: Received): boolean {
  vi.useFakeTimers({ toFake: ['Date'], now: Number(r.headers['webhook-timestamp']) * 1000 });
  try {
    new Webhook(notificationSecret).verify(r.raw, r.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  } finally {
    vi.useRealTimers();
  }
}

describe('PUT /v1/account', () => {
  it('sets notificationUrl and shows its secret once; refuses a bad URL (400 notificationUrl)', async () => {
    const first = await server.api.put('/v1/account', { key: owner.apiKey, body: { notificationUrl: receiverUrl } });
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ notificationUrl: receiverUrl });
    expect(first.body.notificationSecret).toMatch(/^whsec_/);
    notificationSecret = first.body.notificationSecret;
    const again = await server.api.put('/v1/account', { key: owner.apiKey, body: { notificationUrl: receiverUrl } });
    expect(again.body.notificationSecret).toBeUndefined();
    const me = await server.api.graphql(`{ me { notificationUrl } }`, {}, owner.apiKey);
    expect(me.data.me.notificationUrl).toBe(receiverUrl);
    for (const notificationUrl of ['not a url', 'ftp://example.com/x', 42]) {
      const bad = await server.api.put('/v1/account', { key: owner.apiKey, body: { notificationUrl } });
      expect(bad.status, String(notificationUrl)).toBe(400);
      expect(bad.body.error.field).toBe('notificationUrl');
    }
    expect((await server.api.put('/v1/account', { body: { notificationUrl: receiverUrl } })).status).toBe(401);
  });
});

describe('an endpoint that fails for a while, then recovers', () => {
  it('goes failing → disabled → (test ping, enable) → active, each event delivered once and signed', async () => {
    agent.respondWith([500]);
    const task = (await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 't', description: 'd', agentId, expiresInMinutes: 1440 } })).body.data;
    await until('the first failed attempt', async () => (await attempts()) === 1);
    expect(await getAgent()).toMatchObject({ deliveryState: 'failing', endpointDisabledAt: null });
    const job = { name: 'task.deliver' };
    await runNextNow(server.prisma, job);
    await until('the second failed attempt', async () => (await attempts()) === 2);
    // Three failures, but not yet spanning an hour: still failing.
    offsetMs += 1_800_000;
    await runNextNow(server.prisma, job);
    await until('the third failed attempt', async () => (await attempts()) === 3);
    expect((await getAgent()).deliveryState).toBe('failing');
    offsetMs += 1_801_000;
    await runNextNow(server.prisma, job);
    await until('the fourth failed attempt', async () => (await attempts()) === 4);
    const disabled = await getAgent();
    expect(disabled.deliveryState).toBe('disabled');
    expect(disabled.endpointDisabledAt).toEqual(expect.any(String));

    // Disabled: routing passes it over, and its delivery waits instead of being sent.
    const dry = await server.api.post('/v1/tasks/route', { key: requester.apiKey, body: { capabilities: ['shaky'] } });
    expect(dry.status).toBe(200);
    expect(JSON.stringify(dry.body.data)).not.toContain(agentId);
    expect(dry.body.passedOver.find((p: { id: string }) => p.id === agentId).reasons).toContain('endpoint_disabled');
    const sent = agent.received.length;
    await runNextNow(server.prisma, job);
    await untilNoJobDue(server.prisma, job);
    expect(agent.received.length).toBe(sent);
    expect(await attempts()).toBe(4);

    // Enabling needs a successful test ping since it was disabled.
    const early = await server.api.post(`/v1/agents/${agentId}/endpoint/enable`, { key: owner.apiKey });
    expect(early.status).toBe(409);
    expect(early.body.error.message).toMatch(/test ping/);
    agent.respondWith([200]);
    expect((await server.api.post(`/v1/agents/${agentId}/webhook/test`, { key: owner.apiKey })).body.data.ok).toBe(true);
    const enabled = await server.api.post(`/v1/agents/${agentId}/endpoint/enable`, { key: owner.apiKey });
    expect(enabled.status).toBe(200);
    expect(enabled.body.data).toMatchObject({ deliveryState: 'active', endpointFailingSince: null, endpointDisabledAt: null });
    // The waiting delivery goes out at once and succeeds.
    await waitForStatus(() => server.api.get(`/v1/tasks/${task.id}`, { key: requester.apiKey }).then((r) => r.body.data), ['in_progress']);

    // Every event once (the first POST failed and was retried under the same webhook-id).
    await until('three notifications delivered', async () => {
      if (delivered().length < 3) await runNextNow(server.prisma, { name: 'notification.deliver' }).catch(() => {});
      return delivered().length >= 3;
    });
    await untilNoJobDue(server.prisma, { name: 'notification.deliver' });
    // The first one was retried after the others went out.
    expect(delivered().map((e) => e.type).sort()).toEqual(['delivery.recovered', 'endpoint.disabled', 'endpoint.failing']);
    const event = (type: string) => delivered().find((e) => e.type === type)!.data;
    expect(event('endpoint.failing')).toMatchObject({ agentId, failures: 1 });
    expect(event('endpoint.disabled')).toMatchObject({ agentId, trigger: 'automatic', failures: 4 });
    expect(event('delivery.recovered')).toMatchObject({ agentId, taskId: task.id, attempts: 5 });
    const [failed] = received;
    expect(failed!.status).toBe(500);
    const retried = received.filter((r) => r.headers['webhook-id'] === failed!.headers['webhook-id']);
    expect(retried.map((r) => r.status)).toEqual([500, 200]);
    expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(3);
    for (const r of received) expect(verifies(r)).toBe(true);

    const list = await server.api.get('/v1/notifications', { key: owner.apiKey });
    expect(list.body.data.map((n: { type: string; status: string }) => [n.type, n.status])).toEqual([
      ['delivery.recovered', 'succeeded'],
      ['endpoint.disabled', 'succeeded'],
      ['endpoint.failing', 'succeeded'],
    ]);
  });

  it('tells the owner when a delivery is given up (delivery.exhausted)', async () => {
    const gone = await startTestAgent();
    gone.respondWith([410]);
    try {
      const id = (await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Gone', endpoint: gone.url } })).body.data.id;
      const task = (await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 't', description: 'd', agentId: id } })).body.data;
      await until('the exhausted event', () => delivered().find((e) => e.type === 'delivery.exhausted' && e.data.agentId === id));
      expect(delivered().find((e) => e.type === 'delivery.exhausted')!.data).toMatchObject({ taskId: task.id, attempts: 1 });
      const gql = await server.api.graphql(`{ myNotifications(limit: 10) { type agentId status } }`, {}, owner.apiKey);
      expect(gql.data.myNotifications).toContainEqual({ type: 'delivery.exhausted', agentId: id, status: 'succeeded' });
    } finally {
      await gone.close();
    }
  });

  it('refuses to enable an active endpoint (409), another owner (403), an unknown agent (404)', async () => {
    const res = await server.api.post(`/v1/agents/${agentId}/endpoint/enable`, { key: owner.apiKey });
    expect(res.status).toBe(409);
    expect(res.body.error.deliveryState ?? res.body.error.details?.deliveryState ?? 'active').toBe('active');
    expect((await server.api.post(`/v1/agents/${agentId}/endpoint/enable`, { key: bob.apiKey })).status).toBe(403);
    expect((await server.api.post('/v1/agents/agt_missing/endpoint/enable', { key: owner.apiKey })).status).toBe(404);
    const gql = await server.api.graphql(`mutation($id: ID!) { enableAgentEndpoint(agentId: $id) { id } }`, { id: agentId }, owner.apiKey);
    expect(gql.errors![0]!.extensions).toMatchObject({ code: 'CONFLICT', deliveryState: 'active' });
    expect((await server.api.get('/v1/notifications?limit=0', { key: owner.apiKey })).body.error.field).toBe('limit');
  });
});
