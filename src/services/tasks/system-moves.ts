// The moves the service makes itself: a delivery accepted or given up, the expiry, a declined card, an
// A2A agent that cancelled on its side.
import type { SqlTx } from '../../db/kysely.js';
import type { AfterCommit } from '../../db/transaction.js';
import type { Task } from '../../generated/prisma/client.js';
import { enqueue } from '../../stores/job-store.js';
import { expireTask } from '../../jobs/specs/task-expire.js';
import { canMove } from '../../lifecycle/task-lifecycle.js';
import { findTask } from '../../stores/task-store.js';
import { moveWrite, overtaken, transition, type Actor } from '../task-states.js';
import { alone, announceSent, notifyOf, tx, type AnnouncedTask, type TaskCore } from './context.js';
import { finish } from './finish.js';

const DELIVERED_BY: Actor = { kind: 'system', note: 'the agent accepted the delivery' };

// The agent accepted the delivery, in the transaction that records the attempt; `current`: the task as
// the delivery read it.
export async function markDeliveredIn(ctx: TaskCore, t: SqlTx, afterCommit: AfterCommit, taskId: string, current?: Pick<Task, 'status' | 'startedAt'>): Promise<void> {
  const { task, changed } = await transition(t, taskId, 'delivered', { now: ctx.deps.clock.now(), current, by: DELIVERED_BY, notify: notifyOf(ctx) }).catch(
    overtaken({ task: null, changed: false }),
  );
  if (changed && task) await announceSent(ctx, t, afterCommit, task);
}

export async function markDelivered(ctx: TaskCore, taskId: string): Promise<void> {
  await tx(ctx, (t, afterCommit) => markDeliveredIn(ctx, t, afterCommit, taskId));
}

// The same move as a part of the one statement that records the delivery's attempt (deliveries/record.ts),
// from the task as the delivery read it; `announce` once that statement moved the task. Null when the
// task is not where the move leaves from.
export function deliveredMove(ctx: TaskCore, taskId: string, current: Pick<Task, 'status' | 'startedAt'>) {
  const write = moveWrite(taskId, 'delivered', { now: ctx.deps.clock.now(), current, by: DELIVERED_BY, notify: notifyOf(ctx) }, current);
  if (!write) return null;
  const announceMoved = (task: AnnouncedTask) => alone(ctx, (db, afterCommit) => announceSent(ctx, db, afterCommit, task));
  return { write, announce: announceMoved };
}

// Delivery was given up, in the transaction that records the last attempt. A task that moved on
// meanwhile (the agent answered, the requester cancelled) is left where it is.
export async function markUndeliverableIn(ctx: TaskCore, t: SqlTx, afterCommit: AfterCommit, taskId: string): Promise<void> {
  await finish(ctx, t, afterCommit, taskId, 'undeliverable', { data: { error: 'delivery_failed' }, by: { kind: 'system', note: 'delivery was given up' } }).catch(
    overtaken(undefined),
  );
}

// A declined card: the task cannot go ahead.
export function failUnpaid(ctx: TaskCore, taskId: string, reason: string) {
  return tx(ctx, (t, afterCommit) => finish(ctx, t, afterCommit, taskId, 'unpaid', { data: { error: reason }, by: { kind: 'system', note: reason } }));
}

// An A2A agent cancelled the task on its side (delivery/a2a): it ends cancelled, paid back as a cancel is.
export async function cancelledByAgent(ctx: TaskCore, taskId: string, note: string): Promise<void> {
  const task = await findTask(ctx.deps.sql, taskId);
  await tx(ctx, (t, afterCommit) => finish(ctx, t, afterCommit, taskId, 'cancel', { by: { kind: 'agent', id: task?.agentId, note } })).catch(overtaken(undefined));
}

// Job: the expiry time passed.
export async function expire(ctx: TaskCore, taskId: string): Promise<void> {
  const { sql: db, clock, logger } = ctx.deps;
  const task = await findTask(db, taskId);
  // Waiting for input, for review or in a dispute, the task has its own clock (task-trust).
  if (!task || !canMove('expire', task.status)) return;
  if (task.expiresAt > clock.now()) {
    await enqueue(db, expireTask, { taskId }, { runAt: task.expiresAt });
    return;
  }
  // Finished by someone else in the meantime: nothing to expire.
  const expired = await tx(ctx, (t, afterCommit) => finish(ctx, t, afterCommit, taskId, 'expire', { by: { kind: 'system', note: 'the expiry time passed' } })).then(
    () => true,
    overtaken(false),
  );
  if (expired) logger.warn({ taskId, agentId: task.agentId, was: task.status }, 'task expired unfinished');
}
