// Reputation over the running service: ratings (REST and GraphQL), task outcomes feeding counts, the track
// record and trust, health from delivery outcomes and its ageing, and verification from the CLI. Tasks are
// written straight into the database here: the point is what reputation makes of them.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TaskStatus } from '../src/generated/prisma/client.js';
import { trustScore } from '../src/reputation/trust.js';
import { test } from './support/fixtures.js';
import type { TestServer } from './support/server.js';
import { runCli } from './support/processes.js';
import { until } from './support/wait.js';

let server: TestServer;
let owner: { id: string; apiKey: string };
let alice: { id: string; apiKey: string };
let bob: { id: string; apiKey: string };

const services = () => server.app.services;
const agentRow = (id: string) => server.prisma.agent.findUniqueOrThrow({ where: { id } });
const detail = async (id: string) => (await server.api.get(`/v1/discover/${id}`)).body.data;


async function newAgent(name: string): Promise<string> {
  const res = await server.api.post('/v1/agents', { key: owner.apiKey, body: { name, endpoint: 'http://127.0.0.1:9/tasks' } });
  const id = res.body.data.id as string;
  // The agent.changed job gives a new agent its starting trust score.
  await until('the starting trust score', async () => (await agentRow(id)).trustScore > 0);
  return id;
}

// A task that reached `status`, delivered (first 2xx attempt) `deliveredMsBeforeFinish` before it finished.
async function finishedTask(
  agentId: string,
  status: TaskStatus,
  opts: { requesterId?: string; deliveredMsBeforeFinish?: number; matched?: boolean } = {},
): Promise<string> {
  const id = `tsk_${randomBytes(8).toString('hex')}`;
  const finishedAt = new Date();
  const matched = opts.matched ?? true;
  await server.prisma.task.create({
    data: {
      id,
      requesterId: opts.requesterId ?? alice.id,
      agentId,
      status,
      title: 'A task',
      description: 'Do it',
      expiresAt: new Date(Date.now() + 3_600_000),
      matchedAt: matched ? new Date(finishedAt.getTime() - 3_600_000) : null,
      finishedAt: ['completed', 'failed', 'cancelled', 'expired'].includes(status) ? finishedAt : null,
      // A completed task is a paid one (a free agent's payment is taken at no charge): it may be rated.
      ...(status === 'completed' ? { payment: { create: { id: `pay_${randomBytes(8).toString('hex')}`, method: 'free', status: 'captured', amountCents: 0 } } } : {}),
    },
  });
  if (opts.deliveredMsBeforeFinish !== undefined) {
    const deliveryId = `dlv_${randomBytes(8).toString('hex')}`;
    await server.prisma.delivery.create({ data: { id: deliveryId, taskId: id, agentId, status: 'succeeded', attemptCount: 2 } });
    const delivered = new Date(finishedAt.getTime() - opts.deliveredMsBeforeFinish);
    await server.prisma.deliveryAttempt.createMany({
      data: [
        { id: `${deliveryId}_1`, deliveryId, number: 1, statusCode: 503, latencyMs: 5, at: new Date(delivered.getTime() - 60_000) },
        { id: `${deliveryId}_2`, deliveryId, number: 2, statusCode: 200, latencyMs: 5, at: delivered },
      ],
    });
  }
  return id;
}

// What the agent.figures job that a task's finishing transaction queues does for the task's agent.
const recordOutcome = async (taskId: string) => {
  const { agentId } = await server.prisma.task.findUniqueOrThrow({ where: { id: taskId }, select: { agentId: true } });
  if (agentId) await services().reputation.recountFigures(agentId);
};
const deliveryOutcome = (agentId: string, ok: boolean) => services().deps.sql.transaction().execute((tx) => services().reputation.deliveryOutcome(tx, agentId, ok));

test.beforeAll(async ({ server: s, owner: o }) => {
  [server, owner] = [s, o];
  alice = await server.createUser();
  bob = await server.createUser();
});

describe('a new agent', () => {
  it('starts unrated, of unknown health, with the neutral trust score and no average rating', async () => {
    const id = await newAgent('Newcomer');
    const agent = await agentRow(id);
    expect(agent).toMatchObject({ trustTier: 'unrated', healthStatus: 'unknown', verified: false, trustScore: 0.325 });
    expect((await detail(id)).avgRating).toBeNull();
  });

  it('gains no trust from a twitterUrl: it is shown, not trusted', async () => {
    const id = await newAgent('Tweeter');
    const before = (await agentRow(id)).trustScore;
    await server.api.put(`/v1/agents/${id}`, { key: owner.apiKey, body: { twitterUrl: 'https://twitter.com/tweeter' } });
    expect((await detail(id)).twitterUrl).toBe('https://twitter.com/tweeter');
    expect((await agentRow(id)).trustScore).toBe(before);
  });
});

describe('task outcomes: counts, track record, trust and tier', () => {
  let agentId: string;
  beforeAll(async () => {
    agentId = await newAgent('Track Record');
  });

  it('recounts from the tasks, computes p50/p95 from delivery to completion, and leaves unrated at five finished', async () => {
    const durations = [1000, 2000, 3000, 4000];
    for (const ms of durations) await recordOutcome(await finishedTask(agentId, 'completed', { deliveredMsBeforeFinish: ms }));
    // Neither counts against the agent: cancelled by the requester, and failed before it was handed over.
    await recordOutcome(await finishedTask(agentId, 'cancelled'));
    await recordOutcome(await finishedTask(agentId, 'failed', { matched: false }));
    let agent = await agentRow(agentId);
    // taskCount is the finished tasks that count (src/stores/counted-tasks.ts): completed + failed.
    expect(agent).toMatchObject({ completedCount: 4, failedCount: 0, taskCount: 4, trustTier: 'unrated' });
    const trustBefore = agent.trustScore;

    await recordOutcome(await finishedTask(agentId, 'failed'));
    agent = await agentRow(agentId);
    expect(agent).toMatchObject({ completedCount: 4, failedCount: 1, taskCount: 5, recentFinished: 5, recentSuccessRate: 0.8 });
    expect(agent.p50CompletionMs).toBe(2500);
    expect(agent.p95CompletionMs).toBe(3850);
    expect(agent.trustScore).toBe(trustScore(agent));
    expect(agent.trustScore).not.toBe(trustBefore);
    expect(agent.trustTier).toBe('bronze');

    const shown = await detail(agentId);
    expect(shown).toMatchObject({ taskCount: 5, stats: { recentTasks: 5, successRate: 0.8, p50CompletionMs: 2500, p95CompletionMs: 3850 } });
  });

  it('is idempotent: recording the same outcome again changes nothing', async () => {
    const before = await agentRow(agentId);
    const last = await server.prisma.task.findFirstOrThrow({ where: { agentId }, orderBy: { createdAt: 'desc' } });
    await recordOutcome(last.id);
    await recordOutcome(last.id);
    const after = await agentRow(agentId);
    expect(after).toEqual(before);
  });

  it('counts an expiry after matching as a failure, and leaves updatedAt (the owner’s) alone', async () => {
    const before = await agentRow(agentId);
    await recordOutcome(await finishedTask(agentId, 'expired'));
    const after = await agentRow(agentId);
    expect(after.failedCount).toBe(before.failedCount + 1);
    expect(after.recentSuccessRate).toBeCloseTo(4 / 6, 6);
    expect(after.trustScore).toBeLessThan(before.trustScore);
    expect(after.updatedAt).toEqual(before.updatedAt);
  });
});

describe('ratings', () => {
  let agentId: string;
  let completed: string[];
  beforeAll(async () => {
    agentId = await newAgent('Rated Agent');
    completed = [];
    for (let i = 0; i < 3; i++) completed.push(await finishedTask(agentId, 'completed'));
  });

  it('lets the requester rate a completed task once; avgRating and trust follow', async () => {
    const trustBefore = (await agentRow(agentId)).trustScore;
    const res = await server.api.post(`/v1/tasks/${completed[0]}/rating`, { key: alice.apiKey, body: { rating: 5 } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ taskId: completed[0], agentId, rating: 5, avgRating: 5 });
    expect(new Date(res.body.data.ratedAt).toISOString()).toBe(res.body.data.ratedAt);
    expect((await detail(agentId)).avgRating).toBe(5);
    expect((await agentRow(agentId)).trustScore).toBeGreaterThan(trustBefore);

    const again = await server.api.post(`/v1/tasks/${completed[0]}/rating`, { key: alice.apiKey, body: { rating: 1 } });
    expect(again.status).toBe(409);
    expect((await detail(agentId)).avgRating).toBe(5);
  });

  it('rates over GraphQL too, and a low rating lowers the average and the trust score', async () => {
    const trustBefore = (await agentRow(agentId)).trustScore;
    const out = await server.api.graphql(
      `mutation ($id: ID!) { rateTask(taskId: $id, rating: 2) { rating avgRating } }`,
      { id: completed[1] },
      alice.apiKey,
    );
    expect(out.errors).toBeUndefined();
    expect(out.data.rateTask).toEqual({ rating: 2, avgRating: 3.5 });
    expect((await agentRow(agentId)).trustScore).toBeLessThan(trustBefore);
    expect(await server.prisma.task.findUniqueOrThrow({ where: { id: completed[1]! } })).toMatchObject({ rating: 2 });
  });

  it('refuses anyone but the requester, unfinished tasks and unknown tasks', async () => {
    expect((await server.api.post(`/v1/tasks/${completed[2]}/rating`, { key: bob.apiKey, body: { rating: 4 } })).status).toBe(403);
    expect((await server.api.post(`/v1/tasks/${completed[2]}/rating`, { body: { rating: 4 } })).status).toBe(401);
    const running = await finishedTask(agentId, 'in_progress');
    const early = await server.api.post(`/v1/tasks/${running}/rating`, { key: alice.apiKey, body: { rating: 4 } });
    expect(early.status).toBe(409);
    const failed = await finishedTask(agentId, 'failed');
    expect((await server.api.post(`/v1/tasks/${failed}/rating`, { key: alice.apiKey, body: { rating: 4 } })).status).toBe(409);
    expect((await server.api.post('/v1/tasks/tsk_missing/rating', { key: alice.apiKey, body: { rating: 4 } })).status).toBe(404);
  });

  it.each([
    [{ rating: 0 }, 'rating'],
    [{ rating: 6 }, 'rating'],
    [{ rating: 4.5 }, 'rating'],
    [{ rating: '5' }, 'rating'],
    [{}, 'rating'],
    [{ rating: 4, comment: 'nice' }, 'comment'],
  ])('refuses %j with 400 naming %s', async (body, field) => {
    const res = await server.api.post(`/v1/tasks/${completed[2]}/rating`, { key: alice.apiKey, body });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_INPUT', field });
    expect((await server.prisma.task.findUniqueOrThrow({ where: { id: completed[2]! } })).rating).toBeNull();
  });
});

describe('health from delivery outcomes', () => {
  let agentId: string;
  beforeAll(async () => {
    agentId = await newAgent('Flaky Endpoint');
  });

  it('turns healthy on success, tolerates two failures, turns unhealthy on the third; trust follows', async () => {
    const unknownTrust = (await agentRow(agentId)).trustScore;
    await deliveryOutcome(agentId, true);
    const healthy = await agentRow(agentId);
    expect(healthy.healthStatus).toBe('healthy');
    expect(healthy.healthCheckedAt).not.toBeNull();
    expect(healthy.trustScore).toBeCloseTo(unknownTrust + 0.075, 4);

    await deliveryOutcome(agentId, false);
    await deliveryOutcome(agentId, false);
    expect((await agentRow(agentId)).healthStatus).toBe('healthy');
    await deliveryOutcome(agentId, false);
    const unhealthy = await agentRow(agentId);
    expect(unhealthy.healthStatus).toBe('unhealthy');
    expect(unhealthy.trustScore).toBeCloseTo(unknownTrust - 0.075, 4);
    expect((await detail(agentId)).healthStatus).toBe('unhealthy');

    await deliveryOutcome(agentId, true);
    expect((await agentRow(agentId)).healthStatus).toBe('healthy');
  });

  it('goes back to unknown when the evidence ages out, at the next sweep, which also schedules the one after', async () => {
    const dayAndMore = new Date(Date.now() - 25 * 60 * 60 * 1000);
    await server.prisma.$executeRaw`
      UPDATE agents SET last_healthy_at = ${dayAndMore}, last_unhealthy_at = NULL, health_checked_at = ${dayAndMore} WHERE id = ${agentId}`;
    const sweptAt = new Date();
    const result = await services().reputation.healthSweep(sweptAt);
    expect(result.expired).toBeGreaterThanOrEqual(1);
    const agent = await agentRow(agentId);
    expect(agent.healthStatus).toBe('unknown');
    expect(agent.trustScore).toBe(trustScore(agent));
    const [next] = await server.prisma.$queryRaw<Array<{ run_at: Date }>>`
      SELECT run_at FROM graphile_worker.jobs WHERE task_identifier = 'health.sweep' AND key = 'health.sweep'`;
    expect(next!.run_at.getTime()).toBeGreaterThan(Date.now() + 60_000);
    const probes = await server.prisma.$queryRaw<Array<{ key: string }>>`
      SELECT key FROM graphile_worker.jobs WHERE task_identifier = 'health.probe'`;
    // Active agents without fresh evidence are queued for a probe (a single failed probe of the unreachable
    // test endpoints changes no agent's health here: that takes three in a row). The running worker may
    // already have done it, and then the job is gone and the probe's evidence is on the agent instead.
    const probed = ((await agentRow(agentId)).healthCheckedAt?.getTime() ?? 0) >= sweptAt.getTime();
    expect(probes.map((p) => p.key).includes(`health.probe:${agentId}`) || probed).toBe(true);
  });
});

describe('verification from the CLI', () => {
  // Each CLI run is a fresh tsx process that opens the database: slow on a busy machine.
  const CLI_TEST_TIMEOUT_MS = 120_000;

  it('marks an agent verified, which raises its trust score, and can revoke it', async () => {
    const id = await newAgent('Verified Agent');
    const before = await agentRow(id);
    const out = await runCli(['agent', 'verify', id, '--json'], { DATABASE_URL: server.db.url });
    expect(out.code).toBe(0);
    const json = JSON.parse(out.stdout);
    expect(json).toMatchObject({ id, verified: true });
    expect(json.trustScore).toBeCloseTo(before.trustScore + 0.15, 4);
    expect((await detail(id)).verified).toBe(true);
    const after = await agentRow(id);
    expect(after.verifiedAt).not.toBeNull();
    expect(after.updatedAt).toEqual(before.updatedAt);

    const revoked = await runCli(['agent', 'verify', '--agent', id, '--revoke', '--json'], { DATABASE_URL: server.db.url });
    expect(JSON.parse(revoked.stdout)).toMatchObject({ verified: false, trustScore: before.trustScore });
  }, CLI_TEST_TIMEOUT_MS);

  it('fails with a message for an unknown agent (1) or a missing --agent (2, usage)', async () => {
    const unknown = await runCli(['agent', 'verify', '--agent', 'agt_missing'], { DATABASE_URL: server.db.url });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/agent not found/);
    const missing = await runCli(['agent', 'verify'], { DATABASE_URL: server.db.url });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--agent/);
  }, CLI_TEST_TIMEOUT_MS);
});
