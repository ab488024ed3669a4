// Retention of the delivery log: a daily job prunes attempts older than DELIVERY_RETENTION_DAYS (and
// finished deliveries left without attempts); tasks keep their outcome; pending deliveries stay.
import { defaultRetrySchedule } from '../src/delivery/backoff.js';
import { callBack, waitForStatus } from './support/agent.js';
import { describe, expect, testWith } from './support/fixtures.js';
import { makeJobsDue, untilNoJobDue } from './support/jobs.js';
import type { TestServer } from './support/server.js';
import { until } from './support/wait.js';

const DAY = 86_400_000;
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };

const test = testWith({
  serverEnv: { DELIVERY_RETENTION_DAYS: '30' },
  serverTime: { clock, retrySchedule: { ...defaultRetrySchedule, delaysMs: [600_000] } },
  agentProfile: { name: 'Logged' },
});

const pruneJobs = (server: TestServer) =>
  server.prisma.$queryRaw<Array<{ run_at: Date }>>`SELECT run_at FROM graphile_worker.jobs WHERE task_identifier = 'delivery.prune' AND attempts < max_attempts`;

describe('delivery retention', () => {
  test('is a daily job, scheduled at start', async ({ server }) => {
    const [job, ...more] = await pruneJobs(server);
    expect(more).toEqual([]);
    expect(Math.abs(job!.run_at.getTime() - (clock.now().getTime() + DAY))).toBeLessThan(60_000);
  });

  test('prunes attempts older than DELIVERY_RETENTION_DAYS; the task keeps its outcome; pending deliveries stay', async ({ server, owner, requester, agent }) => {
    const { id: agentId, http } = agent;
    const createTask = () =>
      server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 't', description: 'd', agentId, expiresInMinutes: 60 } }).then((r) => r.body.data as { id: string });
    const get = (id: string) => server.api.get(`/v1/tasks/${id}`, { key: requester.apiKey }).then((r) => r.body.data);
    const log = () => server.api.get(`/v1/agents/${agentId}/deliveries`, { key: owner.apiKey }).then((r) => r.body.data as Array<{ id: string; taskId: string; attempts: unknown[] }>);
    http.onDelivery((d) => void callBack(d, { result: { ok: true } }));
    const done = await createTask();
    expect(await waitForStatus(() => get(done.id), ['completed'])).toMatchObject({ result: { ok: true } });
    http.onDelivery(null);
    http.respondWith([500]);
    const waiting = await createTask();
    await until('the failed attempt', async () => (await log()).find((d) => d.taskId === waiting.id)?.attempts.length === 1);
    await untilNoJobDue(server.prisma, { name: 'task.deliver' });

    offsetMs += 31 * DAY;
    http.respondWith([200]);
    const recent = await createTask();
    await waitForStatus(() => get(recent.id), ['in_progress']);

    expect(await makeJobsDue(server.prisma, { name: 'delivery.prune' })).toBe(1);
    await untilNoJobDue(server.prisma, { name: 'delivery.prune' });

    const after = await log();
    // The finished delivery of the completed task is gone with its attempt; the recent one is whole.
    expect(after.find((d) => d.taskId === done.id)).toBeUndefined();
    expect(after.find((d) => d.taskId === recent.id)?.attempts).toHaveLength(1);
    // The pending delivery stays (its old attempt is pruned).
    expect(after.find((d) => d.taskId === waiting.id)?.attempts).toEqual([]);
    expect(await get(done.id)).toMatchObject({ status: 'completed', result: { ok: true } });
    // The next prune is a day later by the service's clock.
    const [next, ...more] = await pruneJobs(server);
    expect(more).toEqual([]);
    expect(Math.abs(next!.run_at.getTime() - (clock.now().getTime() + DAY))).toBeLessThan(60_000);
  });

  test('refuses a retention setting out of range at start', async () => {
    const { loadConfig } = await import('../src/config.js');
    expect(() => loadConfig({ DELIVERY_RETENTION_DAYS: '0' })).toThrow(/DELIVERY_RETENTION_DAYS/);
    expect(loadConfig({}).deliveryOps.retentionDays).toBe(30);
  });
});
