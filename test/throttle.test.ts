// The owner's throttle: maxDeliveriesPerSecond makes deliveries over the rate wait in the queue (never
// fail), and maxConcurrentTasks makes routing prefer agents with room. The service's clock is set a day
// ahead and moved by the test, so a waiting delivery runs only when the test makes it due.
import { afterAll, describe, expect, it } from 'vitest';
import { startTestAgent, waitForStatus, type TestAgent } from './support/agent.js';
import { makeJobsDue, untilNoJobDue } from './support/jobs.js';
import { testWith } from './support/fixtures.js';
import type { TestServer } from './support/server.js';
import { until } from './support/wait.js';
import { agentPool } from '../src/stores/agent-store.js';
import { WORKING } from '../src/lifecycle/task-lifecycle.js';

let now = Date.now() + 86_400_000;
const clock = { now: () => new Date(now) };

let server: TestServer;
let owner: { apiKey: string };
let bob: { apiKey: string };
let requester: { apiKey: string };
const agents: TestAgent[] = [];

const test = testWith({ serverTime: { clock } });

test.beforeAll(async ({ server: s, owner: o, requester: r }) => {
  [server, owner, requester] = [s, o, r];
  bob = await server.createUser();
});
afterAll(async () => {
  for (const a of agents) await a.close();
});

async function newAgent(body: Record<string, unknown>) {
  const http = await startTestAgent();
  agents.push(http);
  const res = await server.api.post('/v1/agents', { key: owner.apiKey, body: { endpoint: http.url, ...body } });
  expect(res.status).toBe(201);
  return { http, id: res.body.data.id as string, created: res.body.data };
}
const createTask = (body: Record<string, unknown>) =>
  server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 't', description: 'd', expiresInMinutes: 1440, ...body } }).then((r) => {
    expect(r.status).toBe(201);
    return r.body.data as { id: string; agentId: string };
  });
const get = (id: string) => server.api.get(`/v1/tasks/${id}`, { key: requester.apiKey }).then((r) => r.body.data);

describe('maxDeliveriesPerSecond', () => {
  it('lets deliveries over the rate wait in the queue instead of failing', async () => {
    const { http, id, created } = await newAgent({ name: 'Rated', maxDeliveriesPerSecond: 1 });
    expect(created.maxDeliveriesPerSecond).toBe(1);
    const tasks = [await createTask({ agentId: id }), await createTask({ agentId: id }), await createTask({ agentId: id })];
    const job = { name: 'task.deliver' };
    for (let sent = 1; sent <= 3; sent++) {
      await until(`delivery ${sent}`, () => http.received.length >= sent);
      await untilNoJobDue(server.prisma, job);
      // One per window: the others wait, with no attempt recorded.
      expect(http.received).toHaveLength(sent);
      const attempts = await server.prisma.deliveryAttempt.findMany({ where: { delivery: { agentId: id } } });
      expect(attempts.map((a) => a.error)).toEqual(Array(sent).fill(null));
      expect(await server.prisma.delivery.count({ where: { agentId: id, status: 'pending' } })).toBe(3 - sent);
      now += 1000;
      await makeJobsDue(server.prisma, job);
    }
    for (const t of tasks) expect((await waitForStatus(() => get(t.id), ['in_progress'])).status).toBe('in_progress');
    expect(new Set(http.received.map((d) => d.body.taskId)).size).toBe(3);
  });
});

describe('maxConcurrentTasks', () => {
  it('makes routing prefer agents with room', async () => {
    // A would win on load (one task in flight against three), unless it is full.
    const a = await newAgent({ name: 'Roomy A', capabilities: ['roomy'], maxConcurrentTasks: 1 });
    const b = await newAgent({ name: 'Roomy B', capabilities: ['roomy'] });
    const started = [await createTask({ agentId: a.id })];
    for (let i = 0; i < 3; i++) started.push(await createTask({ agentId: b.id }));
    for (const t of started) await waitForStatus(() => get(t.id), ['in_progress']);
    const order = async () =>
      (await server.api.post('/v1/tasks/route', { key: requester.apiKey, body: { capabilities: ['roomy'] } })).body.data.map((c: { id: string }) => c.id);

    expect(await order()).toEqual([b.id, a.id]);
    const routed = await createTask({ capabilities: ['roomy'] });
    expect(routed.agentId).toBe(b.id);

    // Without the limit, A's lighter load puts it first.
    const put = await server.api.put(`/v1/agents/${a.id}`, { key: owner.apiKey, body: { maxConcurrentTasks: null } });
    expect(put.body.data.maxConcurrentTasks).toBeNull();
    expect(await order()).toEqual([a.id, b.id]);
    const gql = await server.api.graphql(`query($id: ID!) { myAgent(id: $id) { maxConcurrentTasks maxDeliveriesPerSecond } }`, { id: a.id }, owner.apiKey);
    expect(gql.data.myAgent).toEqual({ maxConcurrentTasks: null, maxDeliveriesPerSecond: null });
  });

  it('counts an agent\'s tasks in flight up to a bound, or up to its maxConcurrentTasks where that is more', async () => {
    const { id } = await newAgent({ name: 'Counted', capabilities: ['counted'] });
    const started = [];
    for (let i = 0; i < 3; i++) started.push(await createTask({ agentId: id }));
    for (const t of started) await waitForStatus(() => get(t.id), ['in_progress']);
    const inFlight = async (upTo: number) =>
      (await agentPool(server.sql, { capabilities: ['counted'], protocols: [], inFlightStatuses: WORKING, inFlightUpTo: upTo, take: 10 })).map((a) => a.inFlight);

    expect(await inFlight(100)).toEqual([3]);
    expect(await inFlight(2)).toEqual([2]);
    // An agent whose limit is above the bound is still seen full when it is.
    expect((await server.api.put(`/v1/agents/${id}`, { key: owner.apiKey, body: { maxConcurrentTasks: 3 } })).status).toBe(200);
    expect(await inFlight(2)).toEqual([3]);
  });

  it('refuses limits out of range (400 naming the field), another owner (403), an unknown agent (404)', async () => {
    const { id } = await newAgent({ name: 'Limited' });
    for (const [body, field] of [
      [{ maxConcurrentTasks: 0 }, 'maxConcurrentTasks'],
      [{ maxConcurrentTasks: 10_001 }, 'maxConcurrentTasks'],
      [{ maxDeliveriesPerSecond: 1.5 }, 'maxDeliveriesPerSecond'],
      [{ maxDeliveriesPerSecond: 'fast' }, 'maxDeliveriesPerSecond'],
    ] as const) {
      const res = await server.api.put(`/v1/agents/${id}`, { key: owner.apiKey, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.field).toBe(field);
    }
    expect((await server.api.put(`/v1/agents/${id}`, { key: bob.apiKey, body: { maxConcurrentTasks: 2 } })).status).toBe(403);
    expect((await server.api.put('/v1/agents/agt_missing', { key: owner.apiKey, body: { maxConcurrentTasks: 2 } })).status).toBe(404);
  });
});
