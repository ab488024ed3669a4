// Tasks that found no agent yet: routed again by a job every ROUTE_RETRY_MS and whenever an agent
// changes, until one takes them or they expire. Also the routing a caller can ask to see.
import { AppError } from '../../errors.js';
import { Prisma, type Task } from '../../generated/prisma/client.js';
import { enqueue } from '../../stores/job-store.js';
import { routeTask } from '../../jobs/specs/task-route.js';
import { json } from '../../stores/json.js';
import { findTask, recordWaitingRouting, waitingTaskIds } from '../../stores/task-store.js';
import type { RouteCriteria, RoutingExplanation } from '../routing.js';
import type { RouteQuery } from '../task-input.js';
import { storedRequirements, type Routed } from '../task-routing.js';
import { tx, type TaskCore } from './context.js';
import { assign } from './match.js';

// How often a task that found no agent is routed again, besides whenever an agent changes.
export const ROUTE_RETRY_MS = 30_000;

function criteriaOf(task: Pick<Task, 'capabilities' | 'protocols' | 'maxPriceCents' | 'requirements' | 'input'>): RouteCriteria & { input: unknown } {
  return {
    capabilities: task.capabilities,
    protocols: task.protocols,
    maxPriceCents: task.maxPriceCents,
    requirements: storedRequirements(task.requirements),
    input: task.input,
  };
}

// The agent for a waiting task as of now, and why there is none when there is none.
async function routeAgain(ctx: TaskCore, task: Task): Promise<{ routed: Routed | null; explained: RoutingExplanation | null }> {
  const criteria = criteriaOf(task);
  if (!task.requestedAgentId) {
    const { routed, explanation } = await ctx.routing.choose(criteria);
    return { routed, explained: explanation };
  }
  // A named agent that became inactive, stopped meeting the requirements or whose schema changed since
  // the task was made is waited for.
  const routed = await ctx.routing.requested(task.requestedAgentId, criteria).catch((error) => {
    if (error instanceof AppError) return null;
    throw error;
  });
  return { routed, explained: null };
}

// Job: routes a task that has no agent yet; tries again later while it has not expired.
export async function routeWaiting(ctx: TaskCore, taskId: string): Promise<void> {
  const { sql: db, clock, logger } = ctx.deps;
  const task = await findTask(db, taskId);
  if (!task || task.status !== 'pending' || task.agentId || task.expiresAt <= clock.now()) return;
  const { routed, explained } = await routeAgain(ctx, task);
  const assigned = await tx(ctx, async (t, afterCommit) => {
    const done = routed ? await assign(ctx, t, afterCommit, task, routed) : null;
    if (!done) {
      // Why it still waits, as of this try.
      if (!routed && explained) await recordWaitingRouting(t, taskId, json(explained as unknown as Prisma.InputJsonValue), clock.now());
      const runAt = new Date(Math.min(clock.now().getTime() + ROUTE_RETRY_MS, task.expiresAt.getTime()));
      await enqueue(t, routeTask, { taskId }, { runAt });
    }
    return done;
  });
  if (assigned?.plan.method === 'card') {
    await ctx.payments().authorizeCard(taskId).catch((error) => logger.warn({ err: error, taskId }, 'card authorization for a re-routed task failed'));
  }
}

// After an agent changed: tasks still waiting for an agent get another chance soon.
export async function agentChanged(ctx: TaskCore): Promise<void> {
  const waiting = await waitingTaskIds(ctx.deps.sql, ctx.deps.clock.now(), 500);
  if (waiting.length === 0) return;
  await ctx.deps.sql.transaction().execute(async (t) => {
    for (const id of waiting) await enqueue(t, routeTask, { taskId: id });
  });
}

export async function route(ctx: TaskCore, query: RouteQuery) {
  return (await ctx.routing.explain(query)).candidates;
}

export const explainRoute = (ctx: TaskCore, query: RouteQuery) => ctx.routing.explain(query);
