// What every task rule works with: the dependencies, payments (reached through a getter: payments call
// back into tasks), the hooks, and how a rule's writes are grouped (a transaction, one statement alone, or
// the caller's transaction). Also the announcement of a move, shared by all of them.
import type { Deps } from '../../deps.js';
import type { SqlDb, SqlTx } from '../../db/kysely.js';
import { withTransaction, type AfterCommit } from '../../db/transaction.js';
import { ownerOfAgent } from '../../stores/agent-store.js';
import type { AnnouncedTask } from '../../stores/task-store.js';
import type { PaymentService } from '../payments/index.js';
import type { TaskFiles } from '../task-files.js';
import type { TaskRouting } from '../task-routing.js';
import type { TaskTrust } from '../task-trust/index.js';
import type { TaskHooks } from './types.js';

// Everything but the trust moves, which are built on top of it.
export interface TaskCore {
  deps: Deps;
  payments: () => PaymentService;
  hooks: TaskHooks;
  files: TaskFiles;
  routing: TaskRouting;
  // An agent's owner never changes, so it is read once per agent and process (a bounded cache).
  owners: Map<string, string>;
}

export interface TaskContext extends TaskCore {
  trust: TaskTrust;
}

const afterCommitFailed = (ctx: TaskCore) => (error: unknown) => ctx.deps.logger.warn({ err: error }, 'after-commit work failed');

export function tx<T>(ctx: TaskCore, work: (tx: SqlTx, afterCommit: AfterCommit) => Promise<T>): Promise<T> {
  return withTransaction(ctx.deps.sql, work, afterCommitFailed(ctx));
}

// Work on the pool, for writes that are one statement each (atomic on its own, so no BEGIN and COMMIT
// around it) or that open their own transaction (`within`). What it leaves for after the commit runs
// when it is done, also when it failed after a statement committed.
export async function alone<T>(ctx: TaskCore, work: (db: SqlDb, afterCommit: AfterCommit) => Promise<T>): Promise<T> {
  const pending: Array<() => Promise<void> | void> = [];
  try {
    return await work(ctx.deps.sql, (fn) => pending.push(fn));
  } finally {
    for (const fn of pending) await Promise.resolve().then(fn).catch(afterCommitFailed(ctx));
  }
}

// `work` in the caller's transaction, or in one of its own when `db` is the pool; what it leaves for
// after the commit goes to the caller's `afterCommit` (which runs after this transaction's commit).
export function within<T>(ctx: TaskCore, db: SqlDb, afterCommit: AfterCommit, work: (t: SqlTx, afterCommit: AfterCommit) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db as SqlTx, afterCommit) : tx(ctx, (t) => work(t, afterCommit));
}

async function ownerOf(ctx: TaskCore, t: SqlDb, agentId: string): Promise<string | null> {
  const known = ctx.owners.get(agentId);
  if (known) return known;
  const ownerId = await ownerOfAgent(t, agentId);
  if (!ownerId) return null;
  if (ctx.owners.size >= 10_000) ctx.owners.clear();
  ctx.owners.set(agentId, ownerId);
  return ownerId;
}

// Where the bus has a channel, the hot moves send their event in their own statement (task-states.ts).
export const notifyOf = (ctx: TaskCore) => ctx.deps.events.notifyChannel;

// What an announcement says of a moved task: a statement that moves a task need return no more of it.
export type { AnnouncedTask };

// `sent`: the move's own statement sent the event (notify); it is only counted once committed.
export async function announce(ctx: TaskCore, t: SqlDb, afterCommit: AfterCommit, task: AnnouncedTask, sent = false): Promise<void> {
  const { events } = ctx.deps;
  if (sent) {
    const event = { taskId: task.id, status: task.status, requesterId: task.requesterId, agentOwnerId: null, agentId: task.agentId };
    afterCommit(async () => events.sentInTransaction(event));
    return;
  }
  const agentOwnerId = task.agentId ? await ownerOf(ctx, t, task.agentId) : null;
  const event = { taskId: task.id, status: task.status, requesterId: task.requesterId, agentOwnerId, agentId: task.agentId };
  afterCommit(() => events.publish(event));
}

// The announcement of a move its own statement sent, when that statement committed.
export const announceSent = (ctx: TaskCore, t: SqlDb, afterCommit: AfterCommit, task: AnnouncedTask) => announce(ctx, t, afterCommit, task, notifyOf(ctx) !== null);
