// The agent kit (examples/agent/kit.ts) and the example agent, against the real service over HTTP:
// the agent registers itself, takes a secret, verifies real deliveries and completes tasks end to end.
import { describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeliveryRejected, deliveryHandler, verifyDelivery } from '../examples/agent/kit.js';
import { startExampleAgent } from '../examples/agent/agent.js';
import { deliveryHeaders } from '../src/delivery/payload.js';
import { generateWebhookSecret } from '../src/delivery/signing.js';
import { test, type TestUser } from './support/fixtures.js';
import type { TestServer } from './support/server.js';
import { waitForStatus } from './support/agent.js';
import { until } from './support/wait.js';

let server: TestServer;
let owner: TestUser;
let requester: TestUser;

test.beforeAll(async ({ server: s, owner: o, requester: r }) => {
  [server, owner, requester] = [s, o, r];
});

describe('the example agent', () => {
  const get = (id: string) => server.api.get(`/v1/tasks/${id}`, { key: requester.apiKey }).then((r) => r.body.data);

  it('registers itself, verifies real deliveries and completes tasks; a restart finds the same agent', async () => {
    const log: string[] = [];
    let agent = await startExampleAgent({ serviceUrl: server.url, apiKey: owner.apiKey, port: 0, log: (l) => log.push(l) });
    const port = Number(new URL(agent.endpoint).port);
    try {
      const created = await server.api.post('/v1/tasks', {
        key: requester.apiKey,
        body: { title: 'Shout', description: 'upper-case it', input: { text: 'bonjour' }, capabilities: ['uppercase'] },
      });
      expect(created.status).toBe(201);
      expect(created.body.data.agentId).toBe(agent.agentId);
      expect(await waitForStatus(() => get(created.body.data.id), ['completed', 'failed'])).toMatchObject({ status: 'completed', result: { text: 'BONJOUR' } });
      expect(log.some((l) => l.includes('refused'))).toBe(false);

      await agent.close();
      agent = await startExampleAgent({ serviceUrl: server.url, apiKey: owner.apiKey, port, log: (l) => log.push(l) });
      const agents = (await server.api.get('/v1/agents', { key: owner.apiKey })).body.data;
      expect(agents.filter((a: { endpoint: string }) => a.endpoint === agent.endpoint)).toHaveLength(1);
      expect(agents.find((a: { id: string }) => a.id === agent.agentId).hasWebhookSecret).toBe(true);
      // The restarted agent took a new secret and still verifies what it receives.
      const again = await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 'Again', description: 'd', input: { text: 'ok' }, agentId: agent.agentId } });
      expect(await waitForStatus(() => get(again.body.data.id), ['completed', 'failed'])).toMatchObject({ status: 'completed', result: { text: 'OK' } });
    } finally {
      await agent.close();
    }
  });

  it('fails a task with the message of what the work threw, and refuses deliveries signed with another secret', async () => {
    const rejected: string[] = [];
    const answers: unknown[] = [];
    let secret = '';
    const endpoint = http.createServer(
      deliveryHandler({ secret: () => secret, work: async () => Promise.reject(new Error('cannot read this')), onCallback: (_d, a) => void answers.push(a), onRejected: (why) => rejected.push(why) }),
    );
    await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/tasks`;
      const id = (await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Thrower', endpoint: url } })).body.data.id;
      secret = (await server.api.post(`/v1/agents/${id}/webhook-secret`, { key: owner.apiKey })).body.webhookSecret;
      const task = (await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 't', description: 'd', agentId: id } })).body.data;
      const finished = await waitForStatus(() => get(task.id), ['failed', 'completed']).catch(async () => ({ stuck: await get(task.id), answers, rejected }));
      expect(finished).toMatchObject({ status: 'failed', error: 'cannot read this' });

      secret = generateWebhookSecret();
      const refused = (await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 't', description: 'd', agentId: id } })).body.data;
      await until('a refused delivery', () => rejected.length > 0);
      expect(rejected[0]).toMatch(/does not match/);
      const [attempt] = (await server.api.get(`/v1/agents/${id}/deliveries`, { key: owner.apiKey })).body.data.find((d: { taskId: string }) => d.taskId === refused.id).attempts;
      expect(attempt.statusCode).toBe(401);
    } finally {
      await new Promise((resolve) => endpoint.close(resolve));
    }
  });
});

describe('verifyDelivery', () => {
  const secret = generateWebhookSecret();
  const body = Buffer.from(JSON.stringify({ taskId: 'tsk_1', taskToken: 't', callbackUrl: 'http://x/cb', title: 'a' }));
  const now = new Date('2026-11-23T12:00:00Z');
  const signed = (at = now, s: string | null = secret) =>
    Object.fromEntries(
      Object.entries(deliveryHeaders({ taskId: 'tsk_1', callbackUrl: 'http://x/cb', now: at, secret: s, deliveryId: 'dlv_1', body })).map(([k, v]) => [k.toLowerCase(), v]),
    );

  it('accepts both schemes the service sends over the raw body', () => {
    const headers = signed();
    expect(verifyDelivery({ rawBody: body, headers, secret, now }).taskId).toBe('tsk_1');
    const serviceOnly = { ...headers };
    delete serviceOnly['webhook-signature'];
    expect(verifyDelivery({ rawBody: body, headers: serviceOnly, secret, now }).taskId).toBe('tsk_1');
  });

  it('refuses a changed body, another secret, an unsigned delivery and a stale timestamp', () => {
    const headers = signed();
    const reserialised = Buffer.from(JSON.stringify(JSON.parse(body.toString()), null, 1));
    expect(() => verifyDelivery({ rawBody: reserialised, headers, secret, now })).toThrow(DeliveryRejected);
    expect(() => verifyDelivery({ rawBody: body, headers, secret: generateWebhookSecret(), now })).toThrow(/does not match/);
    expect(() => verifyDelivery({ rawBody: body, headers: signed(now, null), secret, now })).toThrow(/not signed/);
    const later = new Date(now.getTime() + 6 * 60_000);
    expect(() => verifyDelivery({ rawBody: body, headers, secret, now: later })).toThrow(/too far/);
    const serviceOnly = { ...headers };
    delete serviceOnly['webhook-signature'];
    expect(() => verifyDelivery({ rawBody: body, headers: serviceOnly, secret, now: later })).toThrow(/too far/);
    expect(verifyDelivery({ rawBody: body, headers, secret, now: later, toleranceSeconds: 600 }).taskId).toBe('tsk_1');
  });
});
