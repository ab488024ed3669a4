// The task lifecycle, in one place. Every change of status goes through `transition`, a conditional
// update on the current status, so two concurrent calls can never both succeed; the same transaction
// records the step on the task's history (who, when, why).
import type { Tx } from '../db/client.js';
import { Prisma, type Task, type TaskStatus } from '../generated/prisma/client.js';
import { AppError, conflict, notFound } from '../errors.js';
import { newId } from '../ids.js';
import { jobKey } from '../jobs/spec.js';
import { expireTask } from '../jobs/specs/task-expire.js';
import { riderSql, setClauseOf, withoutRiders, type Riders } from '../db/columns.js';
import { TASK_COLUMNS, taskSelection } from './task-columns.js';

export const TERMINAL: readonly TaskStatus[] = ['completed', 'failed', 'cancelled', 'expired', 'refunded'];
export const NON_TERMINAL: readonly TaskStatus[] = ['pending', 'matched', 'in_progress', 'input_required', 'delivered', 'disputed'];
// The states in which the agent is working on the task (the expiry clock runs).
export const WORKING: readonly TaskStatus[] = ['matched', 'in_progress'];

interface Move {
  from: readonly TaskStatus[];
  to: TaskStatus;
  // Calling the move again from its own result changes nothing and is not an error.
  idempotentFrom?: readonly TaskStatus[];
}

export const MOVES = {
  // Routing found an agent and payment is settled: the task is handed to delivery.
  match: { from: ['pending'], to: 'matched' },
  // The agent's endpoint answered the delivery with 2xx.
  delivered: { from: ['matched'], to: 'in_progress' },
  accept: { from: ['matched'], to: 'in_progress', idempotentFrom: ['in_progress'] },
  start: { from: ['matched'], to: 'in_progress', idempotentFrom: ['in_progress'] },
  // The agent needs more from the requester; the requester's answer sends the task back to work.
  request_input: { from: WORKING, to: 'input_required' },
  provide_input: { from: ['input_required'], to: 'in_progress' },
  // An agent may answer before its delivery's response is processed, so matched is allowed too.
  complete: { from: WORKING, to: 'completed' },
  // With a review window the result waits for the requester before the payment is taken.
  deliver_result: { from: WORKING, to: 'delivered' },
  approve: { from: ['delivered'], to: 'completed' },
  reject: { from: ['delivered'], to: 'disputed' },
  // The agent's owner gives the money back, or stands by the result (the status stays disputed).
  refund: { from: ['disputed'], to: 'refunded' },
  contest: { from: ['disputed'], to: 'disputed' },
  // An operator settles a dispute either way.
  resolve_refund: { from: ['disputed'], to: 'refunded' },
  resolve_pay: { from: ['disputed'], to: 'completed' },
  fail: { from: [...WORKING, 'input_required'], to: 'failed' },
  cancel: { from: ['pending', 'matched', 'in_progress', 'input_required'], to: 'cancelled' },
  // The input request went unanswered (or the card hold would lapse first).
  input_timeout: { from: ['input_required'], to: 'cancelled' },
  // Only while the agent works: waiting for input, review and disputes have their own clocks.
  expire: { from: ['pending', 'matched', 'in_progress'], to: 'expired' },
  // Delivery was given up while the task still waited for its agent.
  undeliverable: { from: ['matched'], to: 'failed' },
  // The card hold was declined; the task never reached its agent.
  unpaid: { from: ['pending'], to: 'failed' },
} as const satisfies Record<string, Move>;

export type MoveName = keyof typeof MOVES;

export type ActorKind = 'requester' | 'agent_owner' | 'agent' | 'operator' | 'system';

// Who made a move, and why: written to the task's history.
export interface Actor {
  kind: ActorKind;
  id?: string | null;
  note?: string | null;
  data?: Prisma.InputJsonValue;
}

export const SYSTEM: Actor = { kind: 'system' };

export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL.includes(status);
}

export interface TransitionOptions {
  data?: Prisma.TaskUncheckedUpdateManyInput;
  // Further conditions the row must meet (e.g. a dispute not yet contested).
  where?: Prisma.TaskWhereInput;
  by?: Actor;
  now?: Date;
  // The task as the caller just read it: the move then applies only if the status is still that one, and
  // the task is not read again to learn where it came from.
  current?: Pick<Task, 'status' | 'startedAt'>;
  // The channel of the live task events (a PostgreSQL server's bus): the move's event is sent with
  // pg_notify in the move's own statement, so it leaves exactly when the transaction commits.
  notify?: string | null;
  // Writes that ride on the move's own statement and happen only if the move applies (`m` is the moved
  // row). Only for moves of plain values (no `where`).
  also?: Riders;
}

// The event a move announces, as the event bus sends it (events/bus.ts TaskEvent), built from the row.
const EVENT_JSON = Prisma.sql`json_build_object('taskId', m.id, 'status', m.status::text, 'requesterId', m.requester_id,
  'agentOwnerId', (SELECT owner_id FROM agents WHERE id = m.agent_id))::text`;

// A conflict from a move made for a job (expiry, delivery outcome, a timer) means someone else moved the
// task first: the job has nothing left to do. `overtaken` answers `fallback` for that and rethrows the rest.
export function overtaken<T>(fallback: T): (error: unknown) => T {
  return (error) => {
    if (error instanceof AppError && error.code === 'CONFLICT') return fallback;
    throw error;
  };
}

/**
 * Applies a move to the task when its status allows it, together with `data`. Returns the updated task,
 * or, for an idempotent repeat, the task unchanged. Otherwise 409 naming the current status.
 */
export async function transition(tx: Tx, taskId: string, move: MoveName, options: TransitionOptions = {}): Promise<{ task: Task; changed: boolean }> {
  const before = options.current ?? (await tx.task.findFirst({ where: { id: taskId }, select: { status: true, startedAt: true } }));
  if (!before) throw notFound('task');
  const moved = await applyMove(tx, taskId, move, options, before);
  if (moved) return { task: moved, changed: true };
  const unchanged = await tx.task.findUnique({ where: { id: taskId } });
  if (!unchanged) throw notFound('task');
  // The status read (or the caller's copy) was out of date but the task may still make the move from where
  // it is now (an agent's answer racing its delivery's 2xx, say).
  if (unchanged.status !== before.status && MOVES[move].from.some((s) => s === unchanged.status)) {
    const retried = await applyMove(tx, taskId, move, options, unchanged);
    if (retried) return { task: retried, changed: true };
  }
  const spec: Move = MOVES[move];
  if (spec.idempotentFrom?.includes(unchanged.status)) return { task: unchanged, changed: false };
  throw conflict(`cannot ${move.replaceAll('_', ' ')} a task that is ${unchanged.status}`, { status: unchanged.status });
}

// One conditional update from `before.status`, when the move allows that state, and its history entry
// (which so knows where the task came from); null when the task is no longer in that state.
async function applyMove(tx: Tx, taskId: string, move: MoveName, options: TransitionOptions, before: Pick<Task, 'status' | 'startedAt'>): Promise<Task | null> {
  const spec: Move = MOVES[move];
  const now = options.now ?? new Date();
  const stamps: Prisma.TaskUncheckedUpdateManyInput = {};
  if (spec.to === 'matched') stamps.matchedAt = now;
  // startedAt is the first time the work began, kept through input rounds.
  if (spec.to === 'in_progress' && !before.startedAt) stamps.startedAt = now;
  if (isTerminal(spec.to)) {
    stamps.finishedAt = now;
    // A finished task's token stops working.
    stamps.tokenHash = null;
  }
  const allowed = spec.from.filter((s) => s === before.status);
  if (allowed.length === 0) return null;
  const by = options.by ?? SYSTEM;
  const entry = { id: newId('evt'), at: now, actor: by.kind, actorId: by.id ?? null, action: move, fromStatus: before.status, toStatus: spec.to, note: by.note ?? null };
  const data: Record<string, unknown> = { ...stamps, ...options.data, status: spec.to, updatedAt: now };
  // A finished task never expires: its pending expiry job goes with the move, rather than waking up hours
  // later to find nothing to do (and a table of such jobs growing with every task meanwhile). The expiry
  // job's own move leaves it alone: it is the job running.
  const expiryJob = isTerminal(spec.to) && move !== 'expire' ? jobKey(expireTask, { taskId }) : null;
  const sets = options.where ? null : setClauseOf(TASK_COLUMNS, data);
  if (sets) {
    // The update, its history entry, its event and the expiry job's removal in one statement. A CTE that
    // only reads runs when it is read, hence the counts.
    const notifyCte = options.notify ? Prisma.sql`, n AS (SELECT pg_notify(${options.notify}, ${EVENT_JSON}) FROM m)` : Prisma.empty;
    const notified = options.notify ? Prisma.sql`, (SELECT count(*) FROM n)::int AS "notified"` : Prisma.empty;
    const expiryCte = expiryJob ? Prisma.sql`, x AS (SELECT graphile_worker.remove_job(${expiryJob}::text) FROM m)` : Prisma.empty;
    const expiryRemoved = expiryJob ? Prisma.sql`, (SELECT count(*) FROM x)::int AS "expiryRemoved"` : Prisma.empty;
    const also = riderSql(options.also);
    const [task] = await tx.$queryRaw<Task[]>`
      WITH m AS (
        UPDATE tasks SET ${sets} WHERE id = ${taskId} AND status = ${before.status}::"TaskStatus" RETURNING *
      ), h AS (
        INSERT INTO task_history (id, task_id, at, actor, actor_id, action, from_status, to_status, note, data)
        SELECT ${entry.id}, m.id, ${now}::timestamptz, ${entry.actor}, ${entry.actorId}, ${move}, ${before.status}::"TaskStatus",
          ${spec.to}::"TaskStatus", ${entry.note}, ${by.data === undefined ? null : JSON.stringify(by.data)}::jsonb
        FROM m
      )${notifyCte}${expiryCte}${also.ctes}
      SELECT ${taskSelection('m')}${notified}${expiryRemoved}${also.select} FROM m`;
    if (!task) return null;
    const extra = task as Partial<Record<'notified' | 'expiryRemoved', unknown>>;
    delete extra.notified;
    delete extra.expiryRemoved;
    return withoutRiders(task);
  }
  if (options.also) throw new Error(`the ${move} move with \`where\` cannot carry further writes`);
  const [task] = await tx.task.updateManyAndReturn({
    where: { ...options.where, id: taskId, status: { in: allowed } },
    data: data as Prisma.TaskUncheckedUpdateManyInput,
  });
  if (!task) return null;
  await tx.taskHistoryEntry.create({ data: { ...entry, taskId, ...(by.data !== undefined ? { data: by.data } : {}) }, select: { id: true } });
  if (options.notify) await tx.$executeRaw`SELECT pg_notify(${options.notify}, ${EVENT_JSON}) FROM tasks m WHERE m.id = ${taskId}`;
  if (expiryJob) await tx.$executeRaw`SELECT graphile_worker.remove_job(${expiryJob}::text)`;
  return task;
}
