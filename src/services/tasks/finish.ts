// The moves that end a task, with what rides on them: the payment's settling and the agent's recount.
import { addJob } from '../../stores/job-store.js';
import type { SqlDb, SqlTx } from '../../db/kysely.js';
import type { AfterCommit } from '../../db/transaction.js';
import type { Task } from '../../generated/prisma/client.js';
import { plainSettle, type TaskOutcome } from '../payments/index.js';
import { transition, transitionAnnounced, type TransitionOptions, type Transitioned } from '../task-states.js';
import { outcomeOf, type FinishingMove } from '../../lifecycle/task-lifecycle.js';
import type { FinishOptions } from '../task-trust/index.js';
import { announceSent, notifyOf, tx, type AnnouncedTask, type TaskCore } from './context.js';

// The task's agent as the caller's copy of the task says, undefined when the copy does not say. An agent,
// once given, stays; a copy without one may be older than the agent's assignment.
function agentOf(current: TransitionOptions['current']): string | null | undefined {
  return current && 'agentId' in current ? (current as Pick<Task, 'agentId'>).agentId : undefined;
}

/**
 * A move that ends the task, with what rides on it: the payment's settling when it is a status move
 * (`payment` as read with the task, see payments/settle.ts plainSettle) and the agent's recount job (its
 * agent known from `current`) in the move's own statement; the rest after it. `db`: the caller's
 * transaction, or the pool: then the move is made alone when nothing needs writing after it, in a
 * transaction of its own otherwise.
 */
export function finish(ctx: TaskCore, db: SqlDb, afterCommit: AfterCommit, taskId: string, move: FinishingMove, finishOptions: FinishOptions = {}): Promise<Task> {
  return finishBy(transition, ctx, db, afterCommit, taskId, move, finishOptions);
}

// `finish` for a caller that answers with the task's status alone (the agent's callback): a move made
// alone returns only what its announcement says of the task.
export function finishAnnounced(
  ctx: TaskCore,
  db: SqlDb,
  afterCommit: AfterCommit,
  taskId: string,
  move: FinishingMove,
  finishOptions: FinishOptions = {},
): Promise<AnnouncedTask> {
  return finishBy(transitionAnnounced, ctx, db, afterCommit, taskId, move, finishOptions);
}

type Transition<T> = (db: SqlDb, taskId: string, move: FinishingMove, options: TransitionOptions) => Promise<Transitioned<T>>;

// `alone`: the transition of a move made alone, with what it returns of the task.
async function finishBy<T extends AnnouncedTask>(
  alone: Transition<T>,
  ctx: TaskCore,
  db: SqlDb,
  afterCommit: AfterCommit,
  taskId: string,
  move: FinishingMove,
  finishOptions: FinishOptions,
): Promise<T | Task> {
  const { payment, ...options } = finishOptions;
  // The state the move ends in, from the lifecycle's table: the payment settles by it.
  const outcome: TaskOutcome = outcomeOf(move);
  const now = options.now ?? ctx.deps.clock.now();
  const settle = payment?.taskId === taskId && payment.status === 'authorized' ? plainSettle(payment, outcome, now) : null;
  const agentId = agentOf(options.current);
  const whole = settle !== null && !!agentId && outcome !== 'cancelled';
  if (!whole && !db.isTransaction) return tx(ctx, (t) => finish(ctx, t, afterCommit, taskId, move, finishOptions));
  const jobs = [...(options.jobs ?? []), ...(agentId ? ctx.hooks.finishedJobs(agentId) : [])];
  const moveOptions: TransitionOptions = { notify: notifyOf(ctx), ...options, now, jobs, paymentMove: settle ?? undefined };
  if (whole && !db.isTransaction) {
    const { task, changed, payment: moved } = await alone(db, taskId, move, moveOptions);
    if (!changed) return task;
    // The payment was not where the task's copy had it: settled from where it is, as finalize does.
    if (!moved) await tx(ctx, (t) => ctx.payments().finalize(t, taskId, outcome));
    await announceSent(ctx, db, afterCommit, task);
    return task;
  }
  const { task, changed, payment: moved } = await transition(db, taskId, move, moveOptions);
  if (!changed) return task;
  await afterTheMove(ctx, db as SqlTx, task, outcome, { settled: settle !== null, paymentMoved: moved !== null, payment, agentKnown: !!agentId });
  await announceSent(ctx, db, afterCommit, task);
  return task;
}

// In the move's transaction, what its own statement could not carry.
async function afterTheMove(
  ctx: TaskCore,
  t: SqlTx,
  task: Task,
  outcome: TaskOutcome,
  { settled, paymentMoved, payment, agentKnown }: { settled: boolean; paymentMoved: boolean; payment: FinishOptions['payment']; agentKnown: boolean },
): Promise<void> {
  if (!settled) await ctx.payments().finalize(t, task.id, outcome, payment);
  else if (!paymentMoved) await ctx.payments().finalize(t, task.id, outcome);
  // The caller's copy of the task had no agent, or was older than its assignment.
  if (task.agentId && !agentKnown) for (const job of ctx.hooks.finishedJobs(task.agentId)) await addJob(t, job);
  if (task.status === 'cancelled') await ctx.hooks.taskCancelled(t, task);
}
