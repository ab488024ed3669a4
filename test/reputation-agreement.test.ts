// An agent's figures are made of the same tasks wherever they are shown: the lifetime counts (completedCount,
// failedCount, taskCount), the recent track record (stats), the daily figures and the discovery detail.
// Every kind of finished task is here once: completed, failed, expired and refunded after the agent had
// them, failed and expired before it did, cancelled, and the owner's own. Rows are written straight into
// the database: the point is what reputation makes of them.
import { randomBytes } from 'node:crypto';
import type { TaskStatus } from '../src/lifecycle/task-lifecycle.js';
import { refreshRatings } from '../src/reputation/track-record.js';
import { describe, expect, test } from './support/fixtures.js';

const HOUR = 3_600_000;
const FIGURES = 'query ($id: String!) { agent(slugOrId: $id) { taskCount completedCount failedCount stats { recentTasks successRate } } }';

describe('the figures of an agent agree on the same tasks', () => {
  test('the track record, the daily figures and the discovery fields count the same tasks as the same outcomes', async ({ server, owner, requester, agent }) => {
    const now = server.app.services.deps.clock.now();
    const task = async (status: TaskStatus, opts: { requesterId?: string; matched?: boolean; rating?: number } = {}) => {
      const id = `tsk_${randomBytes(8).toString('hex')}`;
      await server.sql
        .insertInto('tasks')
        .values({
          id,
          requesterId: opts.requesterId ?? requester.id,
          agentId: agent.id,
          status,
          title: 'A task',
          description: 'Do it',
          expiresAt: new Date(now.getTime() + HOUR),
          matchedAt: opts.matched === false ? null : new Date(now.getTime() - HOUR),
          finishedAt: now,
          updatedAt: now,
          rating: opts.rating ?? null,
        })
        .execute();
    };
    // Counted: two successes, three failures (one of each kind).
    await task('completed', { rating: 4 });
    await task('completed', { rating: 2 });
    await task('failed');
    await task('expired');
    await task('refunded');
    // Not counted: before the agent had them, cancelled, and the owner's own (a success and a failure).
    await task('failed', { matched: false });
    await task('expired', { matched: false });
    await task('cancelled');
    await task('completed', { requesterId: owner.id, rating: 5 });
    await task('failed', { requesterId: owner.id });
    await server.app.services.reputation.recountFigures(agent.id);
    // What a rating's transaction recounts (rateTask), for the ratings written above.
    await server.sql.transaction().execute((tx) => refreshRatings(tx, agent.id, server.app.services.deps.config.reputation.ratingMinCount));

    const { data, errors } = await server.api.graphql(
      `query ($id: String!) { agent(slugOrId: $id) {
        taskCount completedCount failedCount avgRating ratingCount trustTier
        daily(days: 14) { completed failed }
        stats { recentTasks successRate }
      } }`,
      { id: agent.id },
    );
    expect(errors).toBeUndefined();
    const shown = data.agent;
    const daily = (shown.daily as Array<{ completed: number; failed: number }>).reduce(
      (sum, d) => ({ completed: sum.completed + d.completed, failed: sum.failed + d.failed }),
      { completed: 0, failed: 0 },
    );
    const detail = (await server.api.get(`/v1/discover/${agent.id}`)).body.data;

    expect({ completed: shown.completedCount, failed: shown.failedCount }).toEqual({ completed: 2, failed: 3 });
    // The daily figures: the same tasks as the lifetime counts (all of them finished today).
    expect(daily).toEqual({ completed: shown.completedCount, failed: shown.failedCount });
    // taskCount is the finished tasks that count, on the agent and on discovery alike.
    expect(shown.taskCount).toBe(shown.completedCount + shown.failedCount);
    expect(detail.taskCount).toBe(shown.taskCount);
    // The recent window holds every one of them (fewer than its size), with the same share of successes.
    expect(shown.stats).toEqual({ recentTasks: 5, successRate: 0.4 });
    expect(detail.stats).toMatchObject({ recentTasks: 5, successRate: 0.4 });
    // The ratings of counted tasks only: the owner's 5 is left out.
    expect({ avgRating: shown.avgRating, ratingCount: shown.ratingCount }).toEqual({ avgRating: 3, ratingCount: 2 });
    expect(detail.avgRating).toBe(3);
    // Five finished tasks that count: the tier is given (it is not while fewer than five count).
    expect(shown.trustTier).not.toBe('unrated');
  });

  test('one answer shows the counts and the track record of one recount, even when a recount lands while it is made', async ({ server, requester, agent }) => {
    const now = server.app.services.deps.clock.now();
    // A completed task the agent.figures job has not counted yet.
    await server.sql
      .insertInto('tasks')
      .values({ id: `tsk_${randomBytes(8).toString('hex')}`, requesterId: requester.id, agentId: agent.id, status: 'completed', title: 'A task', description: 'Do it', expiresAt: new Date(now.getTime() + HOUR), matchedAt: new Date(now.getTime() - HOUR), finishedAt: now, updatedAt: now })
      .execute();
    const { reputation, discovery } = server.app.services;
    const before = await reputation.recountFigures(agent.id).then(() => server.api.graphql(FIGURES, { id: agent.id }));
    // The recount lands just after the answer read the agent's row, before the rest of the answer is made.
    await server.sql.updateTable('agents').set({ taskCount: 0, completedCount: 0, failedCount: 0, recentFinished: 0, recentSuccessRate: null }).where('id', '=', agent.id).execute();
    const detail = discovery.detail;
    discovery.detail = async (slugOrId) => {
      const row = await detail(slugOrId);
      await reputation.recountFigures(agent.id);
      return row;
    };
    try {
      const { data, errors } = await server.api.graphql(FIGURES, { id: agent.id });
      expect(errors).toBeUndefined();
      // All from before the recount: no "0 finished" beside "last 1 finished".
      expect(data.agent).toMatchObject({ taskCount: 0, completedCount: 0, stats: { recentTasks: 0, successRate: null } });
    } finally {
      discovery.detail = detail;
    }
    // The next answer has the recount's figures, all of them.
    expect((await server.api.graphql(FIGURES, { id: agent.id })).data).toEqual(before.data);
    expect(before.data.agent.taskCount).toBeGreaterThan(0);
    expect(before.data.agent.stats.recentTasks).toBe(before.data.agent.taskCount);
  });
});
