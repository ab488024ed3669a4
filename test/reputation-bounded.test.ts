// Reputation that cannot be gamed: the Wilson lower bound of the success rate, the Bayesian rating average
// and its lower bound (what the tier and the rating sort use), ratings only on completed, paid tasks,
// the owner's own tasks and ratings counting for nothing, and the requester's record for agent owners.
// Tasks are written straight into the database (the point is what reputation makes of them); ratings go
// through the API.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { TaskStatus } from '../src/generated/prisma/client.js';
import { bayesianRating, wilsonLowerBound } from '../src/reputation/bounded.js';
import { test, type TestUser } from './support/fixtures.js';
import type { TestServer } from './support/server.js';
import { until } from './support/wait.js';

let server: TestServer;
let owner: TestUser;
let requester: TestUser;
let stranger: TestUser;

test.beforeAll(async ({ server: s, owner: o, requester: r }) => {
  [server, owner, requester] = [s, o, r];
  stranger = await server.createUser();
});

const agentRow = (id: string) => server.prisma.agent.findUniqueOrThrow({ where: { id } });

async function newAgent(name: string, capability: string): Promise<string> {
  const res = await server.api.post('/v1/agents', { key: owner.apiKey, body: { name, endpoint: 'http://127.0.0.1:9/tasks', capabilities: [capability] } });
  const id = res.body.data.id as string;
  await until('the starting trust score', async () => (await agentRow(id)).trustScore > 0);
  return id;
}

// A finished task of `requesterId` for the agent, its outcome recounted as the agent.figures job does;
// `rating` is written straight in (the API rates the ones that matter).
async function finishedTask(agentId: string, requesterId: string, status: TaskStatus, opts: { rating?: number; paid?: boolean } = {}): Promise<string> {
  const id = `tsk_${randomBytes(8).toString('hex')}`;
  const now = new Date();
  await server.prisma.task.create({
    data: {
      id,
      requesterId,
      agentId,
      status,
      title: 'A task',
      description: 'Do it',
      expiresAt: new Date(now.getTime() + 3_600_000),
      matchedAt: new Date(now.getTime() - 60_000),
      finishedAt: now,
      rating: opts.rating ?? null,
      ratedAt: opts.rating ? now : null,
      payment: { create: { id: `pay_${randomBytes(8).toString('hex')}`, method: 'free', status: opts.paid === false ? 'released' : status === 'completed' ? 'captured' : 'released', amountCents: 0 } },
    },
  });
  await server.app.services.reputation.recountFigures(agentId);
  return id;
}
const rate = (taskId: string, rating: number, key = requester.apiKey) => server.api.post(`/v1/tasks/${taskId}/rating`, { key, body: { rating } });

describe('the bounded figures', () => {
  it('Wilson lower bound and the Bayesian average with its lower bound', () => {
    expect(wilsonLowerBound(1, 1)).toBeCloseTo(0.2065, 3);
    expect(wilsonLowerBound(95, 100)).toBeCloseTo(0.8882, 3);
    expect(wilsonLowerBound(0, 0)).toBeNull();
    const market = { mean: 4, spread: 0.8 };
    expect(bayesianRating(5, 1, 10, market)!.bayes).toBeCloseTo((5 + 40) / 11, 4);
    expect(bayesianRating(5, 1, 10, market)!.lowerBound).toBeLessThan(bayesianRating(960, 200, 10, market)!.lowerBound);
  });
});

describe('self-dealing', () => {
  it('an owner who runs 50 tasks on his own agent and rates them 5 stars moves neither its rating nor its tier', async () => {
    const agentId = await newAgent('Honest Agent', 'honest');
    // A real record first: 8 completed tasks for another requester, one failed, ratings of 3.
    const real: string[] = [];
    for (let i = 0; i < 8; i++) real.push(await finishedTask(agentId, requester.id, 'completed'));
    await finishedTask(agentId, requester.id, 'failed');
    for (const id of real.slice(0, 4)) expect((await rate(id, 3)).status).toBe(201);
    const before = await agentRow(agentId);
    expect(before.trustTier).not.toBe('unrated');
    const publicBefore = (await server.api.get(`/v1/discover/${agentId}`)).body.data;

    for (let i = 0; i < 50; i++) {
      const own = await finishedTask(agentId, owner.id, 'completed');
      // Accepted (he is the requester of a completed, paid task), and counted for nothing.
      expect((await rate(own, 5, owner.apiKey)).status).toBe(201);
    }
    const after = await agentRow(agentId);
    for (const field of ['ratingCount', 'ratingSum', 'ratingBayes', 'ratingLowerBound', 'completedCount', 'taskCount', 'successLowerBound', 'trustScore', 'trustTier'] as const) {
      expect(after[field], field).toEqual(before[field]);
    }
    const publicAfter = (await server.api.get(`/v1/discover/${agentId}`)).body.data;
    expect(publicAfter.avgRating).toBe(publicBefore.avgRating);
    expect(publicAfter.trustTier).toBe(publicBefore.trustTier);
    expect(publicAfter.stats).toEqual(publicBefore.stats);
    expect(publicAfter.stats).toMatchObject({ ratingCount: 4, successLowerBound: expect.any(Number), ratingAverage: expect.any(Number), ratingLowerBound: expect.any(Number) });
  });
});

describe('the rating sort', () => {
  it('does not put an agent with one 5-star rating above one with 200 ratings averaging 4.8', async () => {
    const many = await newAgent('Many Ratings', 'rankme');
    const ids: string[] = [];
    // 160 fives and 40 fours: 4.8. The last one is rated through the API, which recounts.
    for (let i = 0; i < 199; i++) ids.push(await finishedTask(many, requester.id, 'completed', { rating: i < 160 ? 5 : 4 }));
    const last = await finishedTask(many, requester.id, 'completed');
    expect((await rate(last, 4)).status).toBe(201);
    const one = await newAgent('One Rating', 'rankme');
    const single = await finishedTask(one, requester.id, 'completed');
    expect((await rate(single, 5)).status).toBe(201);

    const [m, o] = [await agentRow(many), await agentRow(one)];
    expect(m.ratingSum / m.ratingCount).toBeCloseTo(4.8, 5);
    expect(o.ratingSum / o.ratingCount).toBe(5);
    expect(m.ratingLowerBound!).toBeGreaterThan(o.ratingLowerBound!);

    const page = await server.api.get('/v1/discover?capability=rankme&sort=rating');
    expect(page.body.data.map((a: { id: string }) => a.id)).toEqual([many, one]);
    const gql = await server.api.graphql(`query($id: String!) { agent(slugOrId: $id) { stats { ratingCount ratingAverage ratingLowerBound } } }`, { id: one });
    expect(gql.data.agent.stats).toEqual({ ratingCount: 1, ratingAverage: o.ratingBayes, ratingLowerBound: o.ratingLowerBound });
  });
});

describe('who may rate', () => {
  it('only the requester of a completed, paid task, once (403, 409, 404, 400 naming rating)', async () => {
    const agentId = await newAgent('Rules Agent', 'rules');
    const unpaid = await finishedTask(agentId, requester.id, 'completed', { paid: false });
    const res = await rate(unpaid, 4);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toMatch(/paid/);
    const paid = await finishedTask(agentId, requester.id, 'completed');
    expect((await rate(paid, 4, stranger.apiKey)).status).toBe(403);
    expect((await rate(paid, 4)).status).toBe(201);
    expect((await rate(paid, 5)).status).toBe(409);
    expect((await rate('tsk_missing', 4)).status).toBe(404);
    const cancelled = await finishedTask(agentId, requester.id, 'cancelled');
    expect((await rate(cancelled, 4)).status).toBe(409);
    const bad = await server.api.post(`/v1/tasks/${paid}/rating`, { key: requester.apiKey, body: { rating: 9 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.field).toBe('rating');
  });
});

describe("a requester's record", () => {
  it('is visible to agent owners (REST and GraphQL), not to others (403); 404 for an unknown requester', async () => {
    const agentId = await newAgent('Record Agent', 'record');
    const someone = await server.createUser();
    // Two approved, one rejected then contested, one cancelled; one on an agent of his own counts for nothing.
    await finishedTask(agentId, someone.id, 'completed');
    await finishedTask(agentId, someone.id, 'completed');
    const rejected = await finishedTask(agentId, someone.id, 'refunded');
    for (const action of ['reject', 'contest']) {
      await server.prisma.taskHistoryEntry.create({
        data: { id: `hst_${randomBytes(6).toString('hex')}`, taskId: rejected, at: new Date(), actor: action === 'reject' ? 'requester' : 'agent_owner', action, toStatus: 'disputed' },
      });
    }
    await finishedTask(agentId, someone.id, 'cancelled');
    const ownAgent = (await server.api.post('/v1/agents', { key: someone.apiKey, body: { name: 'His own', endpoint: 'http://127.0.0.1:9/t' } })).body.data.id;
    await finishedTask(ownAgent, someone.id, 'cancelled');

    const res = await server.api.get(`/v1/requesters/${someone.id}/record`, { key: owner.apiKey });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      requesterId: someone.id,
      tasks: 4,
      reviewed: 3,
      approvalRate: 0.6667,
      rejectionRate: 0.3333,
      disputeRate: 0.3333,
      cancellationRate: 0.25,
    });
    const gql = await server.api.graphql(`query($id: ID!) { requesterRecord(requesterId: $id) { tasks approvalRate } }`, { id: someone.id }, owner.apiKey);
    expect(gql.data.requesterRecord).toEqual({ tasks: 4, approvalRate: 0.6667 });
    // A user without agents may not read it; the requester may read his own.
    expect((await server.api.get(`/v1/requesters/${someone.id}/record`, { key: stranger.apiKey })).status).toBe(403);
    expect((await server.api.get(`/v1/requesters/${someone.id}/record`, { key: someone.apiKey })).status).toBe(200);
    expect((await server.api.get('/v1/requesters/usr_missing/record', { key: owner.apiKey })).status).toBe(404);
  });
});
