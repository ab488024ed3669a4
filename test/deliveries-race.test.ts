// A redelivery asked for while an attempt is still being sent must not send the task a second time in
// parallel: attempts claim their number atomically, and the job that finds a claim held steps back.
import { onTestFinished } from 'vitest';
import { waitForStatus } from './support/agent.js';
import { expect, testWith } from './support/fixtures.js';
import { until } from './support/wait.js';

const test = testWith({ serverEnv: { WORKER_CONCURRENCY: '4' }, agentProfile: { name: 'Slow' } });

test('does not POST a redelivery while the running attempt has not been answered', async ({ server, requester, owner, agent }) => {
  const { id: agentId, http: agentHttp } = agent;
  const release = agentHttp.hold();
  onTestFinished(release);
  const task = (await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 't', description: 'd', agentId } })).body.data;
  await agentHttp.waitFor(1);

  const [delivery] = (await server.api.get(`/v1/agents/${agentId}/deliveries`, { key: owner.apiKey })).body.data;
  const redelivered = await server.api.post(`/v1/agents/${agentId}/deliveries/${delivery.id}/redeliver`, { key: owner.apiKey });
  expect(redelivered.status).toBe(202);

  // Either the redelivery's job stepped back (it queued itself for later) or it sent a second request.
  await until('the redelivery job to run', async () => {
    if (agentHttp.received.length > 1) return true;
    const [row] = await server.prisma.$queryRaw<[{ n: bigint }]>`
      SELECT count(*) AS n FROM graphile_worker.jobs
      WHERE task_identifier = 'task.deliver' AND key = ${`task.deliver:${delivery.id}`} AND run_at > now() + interval '5 seconds'`;
    return row.n > 0n;
  });
  expect(agentHttp.received).toHaveLength(1);

  release();
  await waitForStatus(() => server.api.get(`/v1/tasks/${task.id}`, { key: requester.apiKey }).then((r) => r.body.data), ['in_progress']);
  const [after] = (await server.api.get(`/v1/agents/${agentId}/deliveries`, { key: owner.apiKey })).body.data;
  expect(after.status).toBe('succeeded');
  expect(after.attempts.map((a: { number: number; statusCode: number }) => [a.number, a.statusCode])).toEqual([[1, 200]]);
  expect(agentHttp.received).toHaveLength(1);
});
