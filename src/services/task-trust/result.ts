// The agent's result, by its token or its owner: final at once, or held for the requester's review.
import type { SqlDb } from '../../db/kysely.js';
import type { AfterCommit } from '../../db/transaction.js';
import type { Payment, Prisma, Task } from '../../generated/prisma/client.js';
import { enqueue } from '../../stores/job-store.js';
import { autoApprove } from '../../jobs/specs/task-auto-approve.js';
import { earliest } from '../../payments/hold-life.js';
import { json } from '../../stores/json.js';
import type { AnnouncedTask } from '../../stores/task-store.js';
import type { FinishingMove } from '../../lifecycle/task-lifecycle.js';
import { transition, type Actor } from '../task-states.js';
import { deadlineOf, secondsFrom, type FinishOptions, type TrustContext } from './context.js';

// What the rule reads of the task (the callback reads only these columns).
type ResultTask = Pick<Task, 'id' | 'status' | 'startedAt' | 'agentId' | 'reviewWindowSeconds'> & { payment?: Payment | null };

// The agent's result: final at once, or held for the requester's review when the task has a window.
// `task.payment`: the task's payment when it was read with the task (not read again to take it).
// `db`: the caller's transaction, or the pool: a completion with no files to link is then the finishing
// move's statement alone when it can be (tasks/finish.ts), the rest a transaction of its own.
export function resultGiven(ctx: TrustContext, db: SqlDb, afterCommit: AfterCommit, task: ResultTask, result: Record<string, unknown>, by: Actor): Promise<Task> {
  return resultBy(ctx.core.finish, ctx, db, afterCommit, task, result, by);
}

// `resultGiven` for the agent's callback, which answers with the task's status alone: a completion made
// alone returns only what its announcement says of the task.
export function resultAnswered(ctx: TrustContext, db: SqlDb, afterCommit: AfterCommit, task: ResultTask, result: Record<string, unknown>, by: Actor): Promise<AnnouncedTask> {
  return resultBy(ctx.core.finishAnnounced, ctx, db, afterCommit, task, result, by);
}

async function resultBy<T extends AnnouncedTask>(
  finish: (db: SqlDb, afterCommit: AfterCommit, taskId: string, move: FinishingMove, options?: FinishOptions) => Promise<T>,
  ctx: TrustContext,
  db: SqlDb,
  afterCommit: AfterCommit,
  task: ResultTask,
  result: Record<string, unknown>,
  by: Actor,
): Promise<T | Task> {
  const { core, deps: { clock } } = ctx;
  const resultFiles = await core.files.forResult(db, task.id, result);
  const resultHash = resultFiles.hash;
  const data = { result: json(result as Prisma.InputJsonValue), resultHash };
  const complete = (on: SqlDb) => finish(on, afterCommit, task.id, 'complete', { data, by, current: task, payment: task.payment });
  if (task.reviewWindowSeconds === 0 && resultFiles.files.length === 0) return complete(db);
  return core.within(db, afterCommit, async (t): Promise<T | Task> => {
    await core.files.link(t, task.id, 'result', resultFiles.files);
    if (task.reviewWindowSeconds === 0) return complete(t);
    const now = clock.now();
    const reviewEndsAt = earliest(secondsFrom(now, task.reviewWindowSeconds), await deadlineOf(t, task.id));
    const { task: moved } = await transition(t, task.id, 'deliver_result', { now, current: task, data: { ...data, reviewEndsAt }, by: { ...by, data: { resultHash } } });
    await enqueue(t, autoApprove, { taskId: task.id }, { runAt: reviewEndsAt });
    await core.announce(t, afterCommit, moved);
    return moved;
  });
}
