// What every trust rule takes first: the service's dependencies and the task service's own moves
// (services/tasks/), plus the small helpers the rules share.
import type { SqlDb, SqlTx } from '../../db/kysely.js';
import type { AfterCommit } from '../../db/transaction.js';
import type { Deps } from '../../deps.js';
import type { Payment, Task } from '../../generated/prisma/client.js';
import { paymentDeadline } from '../../payments/hold-life.js';
import { paymentOfTask } from '../../stores/payment-store.js';
import type { AnnouncedTask } from '../../stores/task-store.js';
import type { Viewer } from '../accounts/index.js';
import type { FinishingMove } from '../../lifecycle/task-lifecycle.js';
import type { TaskFiles } from '../task-files.js';
import { overtaken, type TransitionOptions } from '../task-states.js';

// A move that ends the task; `payment`: the task's payment as read with it, if it was.
export type FinishOptions = Omit<TransitionOptions, 'now'> & { now?: Date; payment?: Payment | null };

// What the trust moves need from the task service (services/tasks/).
export interface TaskInternals {
  tx<T>(work: (tx: SqlTx, afterCommit: AfterCommit) => Promise<T>): Promise<T>;
  // `work` in the caller's transaction `db`, or in one of its own when `db` is the pool.
  within<T>(db: SqlDb, afterCommit: AfterCommit, work: (tx: SqlTx, afterCommit: AfterCommit) => Promise<T>): Promise<T>;
  announce(t: SqlTx, afterCommit: AfterCommit, task: Task): Promise<void>;
  // `db`: the caller's transaction, or the pool (the move alone when it can be, see tasks/finish.ts).
  finish(db: SqlDb, afterCommit: AfterCommit, taskId: string, move: FinishingMove, options?: FinishOptions): Promise<Task>;
  // `finish` for a caller that answers with the task's status alone (see tasks/finish.ts).
  finishAnnounced(db: SqlDb, afterCommit: AfterCommit, taskId: string, move: FinishingMove, options?: FinishOptions): Promise<AnnouncedTask>;
  loadForAgentOwner(viewer: Viewer, id: string): Promise<Task & { agent: { ownerId: string } | null }>;
  loadForRequester(viewer: Viewer, id: string): Promise<Task>;
  files: TaskFiles;
}

export interface TrustContext {
  deps: Deps;
  core: TaskInternals;
}

export const secondsFrom = (from: Date, seconds: number) => new Date(from.getTime() + seconds * 1000);

// The task's card hold lapses then (null without one); no wait may outlive it.
export async function deadlineOf(t: SqlDb, taskId: string): Promise<Date | null> {
  return paymentDeadline(await paymentOfTask(t, taskId));
}

// A job's move that finds the task already moved by someone else has nothing left to do.
export async function unlessOvertaken(work: Promise<unknown>): Promise<void> {
  await work.catch(overtaken(undefined));
}
