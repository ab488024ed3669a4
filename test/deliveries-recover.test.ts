// Recovery after an outage: POST /v1/agents/:id/deliveries/recover sends again, once each, the deliveries
// whose attempts failed in the window, for tasks still waiting for them.
import { defaultRetrySchedule } from '../src/delivery/backoff.js';
import { waitForStatus } from './support/agent.js';
import { describe, expect, testWith, type RegisteredAgent, type TestUser } from './support/fixtures.js';
import { untilNoJobDue } from './support/jobs.js';
import type { TestServer } from './support/server.js';
import { until } from './support/wait.js';

// Retries wait ten minutes (tasks live an hour): only recovery sends again while the test runs.
const test = testWith({
  serverEnv: { DELIVERY_MAX_ATTEMPTS: '5' },
  serverTime: { retrySchedule: { ...defaultRetrySchedule, delaysMs: [600_000] } },
  agentProfile: { name: 'Down' },
});

// The owner's agent, the requester's tasks for it.
function world({ server, owner, requester, agent }: { server: TestServer; owner: TestUser; requester: TestUser; agent: RegisteredAgent }) {
  const agentId = agent.id;
  return {
    http: agent.http,
    agentId,
    createTask: () =>
      server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 't', description: 'd', agentId, expiresInMinutes: 60 } }).then((r) => r.body.data as { id: string }),
    get: (id: string) => server.api.get(`/v1/tasks/${id}`, { key: requester.apiKey }).then((r) => r.body.data),
    recover: (body: Record<string, unknown>, key = owner.apiKey, id = agentId) => server.api.post(`/v1/agents/${id}/deliveries/recover`, { key, body }),
    sentFor: (taskId: string) => agent.http.received.filter((d) => d.body.taskId === taskId).length,
  };
}

describe('recovering failed deliveries', () => {
  test('sends again, once each, the failed deliveries of open tasks in the window', async ({ server, owner, requester, agent }) => {
    const { http, agentId, createTask, get, recover, sentFor } = world({ server, owner, requester, agent });
    const start = new Date(Date.now() - 1000);
    http.respondWith([500]);
    const [t1, t2, t3] = [await createTask(), await createTask(), await createTask()];
    await until('three failed attempts', () => http.received.length >= 3);
    await untilNoJobDue(server.prisma, { name: 'task.deliver' });
    // A task that is no longer open is not delivered again.
    expect((await server.api.post(`/v1/tasks/${t3.id}/cancel`, { key: requester.apiKey })).status).toBe(200);

    // A window that ended before the failures recovers nothing.
    const none = await recover({ since: new Date(start.getTime() - 60_000).toISOString(), until: start.toISOString() });
    expect(none.status).toBe(202);
    expect(none.body.data.recovered).toBe(0);

    http.respondWith([200]);
    const res = await recover({ since: start.toISOString() });
    expect(res.status).toBe(202);
    expect(res.body.data.recovered).toBe(2);
    const deliveries = (await server.api.get(`/v1/agents/${agentId}/deliveries`, { key: owner.apiKey })).body.data as Array<{ id: string; taskId: string }>;
    expect([...res.body.data.deliveryIds].sort()).toEqual(deliveries.filter((d) => d.taskId !== t3.id).map((d) => d.id).sort());
    for (const t of [t1, t2]) await waitForStatus(() => get(t.id), ['in_progress']);
    await untilNoJobDue(server.prisma, { name: 'task.deliver' });
    expect([sentFor(t1.id), sentFor(t2.id), sentFor(t3.id)]).toEqual([2, 2, 1]);

    // Succeeded deliveries are not sent again.
    const again = await server.api.graphql(
      `mutation($id: ID!, $since: DateTime!) { recoverDeliveries(agentId: $id, since: $since) { recovered } }`,
      { id: agentId, since: start.toISOString() },
      owner.apiKey,
    );
    expect(again.data.recoverDeliveries.recovered).toBe(0);
  });

  test('refuses a bad window (400 naming the field), another owner (403), an unknown agent (404)', async ({ server, owner, requester, agent }) => {
    const { recover } = world({ server, owner, requester, agent });
    const bob = await server.createUser();
    const now = Date.now();
    for (const [body, field] of [
      [{}, 'since'],
      [{ since: 'yesterday' }, 'since'],
      [{ since: new Date(now).toISOString(), until: new Date(now - 1000).toISOString() }, 'until'],
      [{ since: new Date(now).toISOString(), until: 12 }, 'until'],
    ] as const) {
      const res = await recover(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.field, JSON.stringify(body)).toBe(field);
    }
    expect((await recover({ since: new Date(now).toISOString() }, bob.apiKey)).status).toBe(403);
    expect((await recover({ since: new Date(now).toISOString() }, owner.apiKey, 'agt_missing')).status).toBe(404);
  });
});
