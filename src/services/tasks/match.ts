// The match: a task given its agent and, once paid for, a callback token and its delivery.
import type { SqlTx } from '../../db/kysely.js';
import type { AfterCommit } from '../../db/transaction.js';
import { Prisma, type Task } from '../../generated/prisma/client.js';
import { newId } from '../../ids.js';
import { jobsCall, queuedJob, type QueuedJob } from '../../stores/job-store.js';
import { deliverTask } from '../../jobs/specs/task-deliver.js';
import { json } from '../../stores/json.js';
import { assignAgent, findTask, type NewTask } from '../../stores/task-store.js';
import type { Viewer } from '../accounts/index.js';
import type { LockedTask } from '../payments/index.js';
import type { NewTaskPayment } from '../../stores/payment-store.js';
import { createMoved, transition, type TransitionOptions } from '../task-states.js';
import type { Routed } from '../task-routing.js';
import { newTokenNonce, taskToken, tokenHash } from '../task-token.js';
import { alone, announceSent, notifyOf, type TaskCore } from './context.js';
import type { TaskWithPayment } from './types.js';

// What the match writes with its move: a callback token, the delivery, and the delivery's job with the
// jobs `also` (added in one call: one wake of the worker for them all, see jobsCall).
function matchWrites(ctx: TaskCore, taskId: string, also: QueuedJob[] = []): TransitionOptions {
  const nonce = newTokenNonce();
  const deliveryId = newId('dlv');
  return {
    now: ctx.deps.clock.now(),
    notify: notifyOf(ctx),
    data: { tokenNonce: nonce, tokenHash: tokenHash(taskToken(ctx.deps.serverKey, taskId, nonce)) },
    deliveryId,
    jobs: [jobsCall([queuedJob(deliverTask, { deliveryId }), ...also])],
  };
}

// The task moves to matched: a callback token is made and the delivery is queued, all in `t`.
// `also`: jobs added with the delivery's.
export async function matchNow(ctx: TaskCore, t: SqlTx, afterCommit: AfterCommit, taskId: string, current?: Pick<Task, 'status' | 'startedAt'>, also: QueuedJob[] = []): Promise<Task> {
  // The move, its delivery and the delivery's job in one statement.
  const { task } = await transition(t, taskId, 'match', { ...matchWrites(ctx, taskId, also), current });
  await announceSent(ctx, t, afterCommit, task);
  return task;
}

// A new task for an agent that asks nothing, matched as it is made: the task with its expiry job, its
// payment, the match with its delivery and the delivery's job, and its event, in one statement.
export function createMatched(ctx: TaskCore, row: NewTask, payment: NewTaskPayment, expiry: QueuedJob): Promise<TaskWithPayment> {
  return alone(ctx, async (db, afterCommit) => {
    const moved = await createMoved(db, row, 'match', { ...matchWrites(ctx, row.id, [expiry]), payment });
    await announceSent(ctx, db, afterCommit, moved.task);
    return { ...moved.task, payment: moved.payment };
  });
}

// Assigns the agent, settles how the task is paid, and matches it when it can be delivered now.
// `fresh`: the task was inserted with its agent in this transaction, so there is nothing to claim and
// no payment yet; otherwise it waited unrouted and is given the agent now.
// `requester`: the requester as the request authenticated him, when there is a request.
// `jobs`: the fresh task's own jobs, added with its delivery's or, when its card must be held first, with
// its payment's.
export async function assign(ctx: TaskCore, t: SqlTx, afterCommit: AfterCommit, task: Task, { agent, explanation }: Routed, fresh = false, requester?: Viewer, jobs: QueuedJob[] = []) {
  if (!fresh) {
    if (jobs.length) throw new Error('only a fresh task brings jobs to its assignment');
    if (!(await assignAgent(t, task.id, agent.id, json(explanation as unknown as Prisma.InputJsonValue), ctx.deps.clock.now()))) return null;
  }
  const plan = await ctx.payments().prepare(t, { ...task, agentId: agent.id }, agent, { fresh, requester, jobs });
  if (plan.ready) await matchNow(ctx, t, afterCommit, task.id, { status: 'pending', startedAt: null }, jobs);
  return { plan };
}

// Payment hook: the card hold was confirmed, so the waiting task can be delivered.
// `locked`: the task's row as the hold's transaction locked it.
export async function matchAfterAuthorization(ctx: TaskCore, t: SqlTx, afterCommit: AfterCommit, taskId: string, locked: LockedTask | null): Promise<void> {
  const task = locked ?? (await findTask(t, taskId));
  if (!task || task.status !== 'pending' || !task.agentId) return;
  await matchNow(ctx, t, afterCommit, taskId, task);
}
