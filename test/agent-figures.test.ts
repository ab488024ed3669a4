// An agent's figures (task counts, track record, trust) follow its finished tasks through the
// agent.figures job, and the task path itself leaves the agent's row alone: tasks for one agent must not
// wait for each other on it.
import { sql } from 'kysely';
import { callBack, waitForStatus } from './support/agent.js';
import { makeJobsDue, untilNoJobDue } from './support/jobs.js';
import { describe, expect, testWith } from './support/fixtures.js';
import { until } from './support/wait.js';

const test = testWith({ agentProfile: { name: 'Counted', capabilities: ['counted'], protocols: ['http'] } });

describe('agent figures', () => {
  test('a task is created, delivered and finished without writing its agent; the queued recount counts it', async ({ server, requester, agent }) => {
    const { prisma } = server;
    // xmin: the transaction that last wrote the row.
    const rowVersion = async () => (await prisma.$queryRaw<Array<{ v: string }>>`SELECT xmin::text AS v FROM agents WHERE id = ${agent.id}`)[0]!.v;
    const recount = async () => {
      await until('the recount queued', async () => (await makeJobsDue(prisma, { name: 'agent.figures', payload: { agentId: agent.id } })) > 0);
      await untilNoJobDue(prisma, { name: 'agent.figures' });
    };
    const figures = () => prisma.agent.findUniqueOrThrow({ where: { id: agent.id }, select: { taskCount: true, completedCount: true, recentFinished: true } });

    // The first delivery makes a new agent healthy: that is a change, and it is written.
    const answers: Array<() => void> = [];
    agent.http.onDelivery((d) => {
      answers.push(() => void callBack(d, { result: { ok: true } }));
    });
    const create = () => server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 'Count me', description: 'd', capabilities: ['counted'] } });
    const first = await create();
    expect(first.status).toBe(201);
    await waitForStatus(() => server.api.get(`/v1/tasks/${first.body.data.id}`, { key: requester.apiKey }).then((r) => r.body.data), ['in_progress']);
    answers.shift()!();
    await waitForStatus(() => server.api.get(`/v1/tasks/${first.body.data.id}`, { key: requester.apiKey }).then((r) => r.body.data), ['completed']);
    // The recount waits a moment for more finished tasks; the test does not wait it out.
    await recount();
    expect(await figures()).toEqual({ taskCount: 1, completedCount: 1, recentFinished: 1 });

    // A second task, up to the agent's answer: created, paid (free), matched and delivered to a healthy agent.
    const before = await rowVersion();
    const second = await create();
    await waitForStatus(() => server.api.get(`/v1/tasks/${second.body.data.id}`, { key: requester.apiKey }).then((r) => r.body.data), ['in_progress']);
    expect(await rowVersion()).toBe(before);

    // Its completion queues the recount, which counts it.
    answers.shift()!();
    await waitForStatus(() => server.api.get(`/v1/tasks/${second.body.data.id}`, { key: requester.apiKey }).then((r) => r.body.data), ['completed']);
    await recount();
    expect(await figures()).toEqual({ taskCount: 2, completedCount: 2, recentFinished: 2 });
    expect((await server.api.get(`/v1/discover/${agent.id}`)).body.data.taskCount).toBe(2);
  });

  test('finished tasks of one agent join one pending recount', async ({ server, agent }) => {
    const { prisma } = server;
    const queue = () => prisma.$queryRaw<Array<{ n: number }>>`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE key = ${`agent.figures:${agent.id}`}`;
    // Held back, so the test sees the queue as a busy worker would leave it.
    const later = new Date(Date.now() + 3_600_000);
    const { sql: db } = server.app.services.deps;
    await db.transaction().execute(async (tx) => {
      await server.app.services.reputation.taskFinished(tx, agent.id);
      await sql`UPDATE graphile_worker._private_jobs SET run_at = ${later} WHERE key = ${`agent.figures:${agent.id}`}`.execute(tx);
    });
    for (let i = 0; i < 3; i++) await db.transaction().execute((tx) => server.app.services.reputation.taskFinished(tx, agent.id));
    expect((await queue())[0]!.n).toBe(1);
    // preserve_run_at: joining does not push the pending recount further away.
    const [job] = await prisma.$queryRaw<Array<{ run_at: Date }>>`SELECT run_at FROM graphile_worker.jobs WHERE key = ${`agent.figures:${agent.id}`}`;
    expect(job!.run_at).toEqual(later);
  });

  test('a finished task leaves a recount that waits untried as it is, and queues a new one once the waiting one is taken', async ({ server, agent }) => {
    const { prisma } = server;
    const key = `agent.figures:${agent.id}`;
    const jobs = () =>
      prisma.$queryRaw<Array<{ id: bigint; key: string | null; revision: number; locked: boolean }>>`
        SELECT j.id, j.key, j.revision, j.locked_at IS NOT NULL AS locked FROM graphile_worker._private_jobs j
        JOIN graphile_worker._private_tasks t ON t.id = j.task_id
        WHERE t.identifier = 'agent.figures' AND j.payload->>'agentId' = ${agent.id} ORDER BY j.id`;
    const later = new Date(Date.now() + 3_600_000);
    const { sql: db } = server.app.services.deps;
    const finished = () => db.transaction().execute((tx) => server.app.services.reputation.taskFinished(tx, agent.id));
    await db.transaction().execute(async (tx) => {
      await server.app.services.reputation.taskFinished(tx, agent.id);
      await sql`UPDATE graphile_worker._private_jobs SET run_at = ${later} WHERE key = ${key}`.execute(tx);
    });
    // Waiting untried: not written again (add_job, which would count a revision, is not called).
    for (let i = 0; i < 2; i++) await finished();
    const [waiting] = await jobs();
    expect(await jobs()).toEqual([{ id: waiting!.id, key, revision: 0, locked: false }]);
    // Tried once and waiting to retry: add_job runs, as before.
    await sql`UPDATE graphile_worker._private_jobs SET attempts = 1 WHERE id = ${waiting!.id}`.execute(db);
    await finished();
    expect(await jobs()).toEqual([{ id: waiting!.id, key, revision: 1, locked: false }]);
    // Taken by a worker (it may have read the figures already): a new recount is queued after it.
    await sql`UPDATE graphile_worker._private_jobs SET attempts = 0, locked_at = now(), locked_by = 'test' WHERE id = ${waiting!.id}`.execute(db);
    await finished();
    const after = await jobs();
    await sql`DELETE FROM graphile_worker._private_jobs WHERE id = ${waiting!.id}`.execute(db);
    expect(after).toHaveLength(2);
    expect(after[0]).toMatchObject({ id: waiting!.id, key: null, locked: true });
    expect(after[1]).toMatchObject({ key, revision: 0, locked: false });
  });
});
