// The task lifecycle, in one place. Every change of status goes through `transition`, a conditional
// update on the current status, so two concurrent calls can never both succeed; the same transaction
// records the step on the task's history (who, when, why).
import type { RawBuilder } from 'kysely';
import type { SqlDb } from '../db/kysely.js';
import type { Payment, Prisma, Task, TaskStatus } from '../generated/prisma/client.js';
import { AppError, conflict, notFound } from '../errors.js';
import { MOVES, isTerminal, mayMove, type ActorKind, type Move, type MoveName, type TaskStatus as LifecycleStatus } from '../lifecycle/task-lifecycle.js';
import { newId } from '../ids.js';
import { jobKey } from '../jobs/spec.js';
import { expireTask } from '../jobs/specs/task-expire.js';
import {
  applyMove,
  applyMoveAnnounced,
  findTask,
  taskStatusOf,
  type AnnouncedTask,
  type MoveGuard,
  type Moved,
  type MoveWrite,
  type NewTask,
  type TaskChanges,
} from '../stores/task-store.js';
import type { NewTaskPayment, PaymentMove } from '../stores/payment-store.js';

// The states, the moves and who may make them are stated in lifecycle/task-lifecycle.ts (no database
// imports, so the dashboard shares them); this module applies them.
export { MOVES, NON_TERMINAL, TERMINAL, WORKING, isTerminal, type ActorKind, type MoveName } from '../lifecycle/task-lifecycle.js';

// The lifecycle's states are schema.prisma's enum TaskStatus, both ways: a state added to one and not the
// other fails to compile here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
type _StatesMatchTheSchema = Holds<Same<TaskStatus, LifecycleStatus>>;

// Who made a move, and why: written to the task's history.
export interface Actor {
  kind: ActorKind;
  id?: string | null;
  note?: string | null;
  data?: Prisma.InputJsonValue;
}

export const SYSTEM: Actor = { kind: 'system' };

export interface TransitionOptions {
  data?: TaskChanges;
  // Further conditions the row must meet (a dispute not yet contested, the input round the caller saw).
  where?: MoveGuard;
  by?: Actor;
  // From deps.clock: the move's stamps, its history entry and updatedAt.
  now: Date;
  // The task as the caller just read it: the move then applies only if the status is still that one, and
  // the task is not read again to learn where it came from.
  current?: Pick<Task, 'status' | 'startedAt'>;
  // The channel of the live task events (a PostgreSQL server's bus): the move's event is sent with
  // pg_notify in the move's own statement, so it leaves exactly when the transaction commits.
  notify?: string | null;
  // Jobs the move causes (jobCall), added in its statement only if it applies.
  jobs?: RawBuilder<unknown>[];
  // The delivery a match creates, in the move's statement.
  deliveryId?: string;
  // The payment's move that goes with the task's, in its statement and only if it applies (a payment
  // settled by its status move alone, see payments.ts plainSettle).
  paymentMove?: PaymentMove;
}

// A move's outcome: the task (or what the caller asked of it), whether this call moved it, and the payment
// its statement wrote (see Moved).
export interface Transitioned<T = Task> {
  task: T;
  changed: boolean;
  payment: Payment | null;
}

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
export function transition(db: SqlDb, taskId: string, move: MoveName, options: TransitionOptions): Promise<Transitioned> {
  return transitionBy(applyMove, db, taskId, move, options);
}

// `transition` for a caller that only announces the move and answers with the task's status: the moved
// task comes back with what its announcement says (an unchanged one, which is read again, whole).
export function transitionAnnounced(db: SqlDb, taskId: string, move: MoveName, options: TransitionOptions): Promise<Transitioned<AnnouncedTask>> {
  return transitionBy(applyMoveAnnounced, db, taskId, move, options);
}

async function transitionBy<T>(apply: Apply<T>, db: SqlDb, taskId: string, move: MoveName, options: TransitionOptions): Promise<Transitioned<T | Task>> {
  // Who may make a move is fixed by the lifecycle; a service asking for another is a bug, not a 409.
  const actor = options.by?.kind ?? SYSTEM.kind;
  if (!mayMove(move, actor)) throw new Error(`the lifecycle does not let ${actor} make the move ${move}`);
  const before = options.current ?? (await taskStatusOf(db, taskId));
  if (!before) throw notFound('task');
  const moved = await moveFrom(apply, db, taskId, move, options, before);
  if (moved) return { ...moved, changed: true };
  const unchanged = await findTask(db, taskId);
  if (!unchanged) throw notFound('task');
  // The status read (or the caller's copy) was out of date but the task may still make the move from where
  // it is now (an agent's answer racing its delivery's 2xx, say).
  if (unchanged.status !== before.status && MOVES[move].from.some((s) => s === unchanged.status)) {
    const retried = await moveFrom(apply, db, taskId, move, options, unchanged);
    if (retried) return { ...retried, changed: true };
  }
  const spec: Move = MOVES[move];
  if (spec.idempotentFrom?.includes(unchanged.status)) return { task: unchanged, changed: false, payment: null };
  throw conflict(`cannot ${move.replaceAll('_', ' ')} a task that is ${unchanged.status}`, { status: unchanged.status });
}

/**
 * A new task that makes `move` as it is created (a task matched at once): its row written with the move's
 * stamps, history entry and event, and `payment`, the payment it is paid by, in one statement. Atomic on
 * its own, so it needs no transaction; a unique violation (an idempotency key taken) writes nothing.
 */
export async function createMoved(db: SqlDb, row: NewTask, move: MoveName, options: TransitionOptions & { payment?: NewTaskPayment }): Promise<Moved> {
  const write = moveWrite(row.id, move, options, { status: row.status ?? 'pending', startedAt: null });
  if (!write) throw new Error(`a new task cannot make the move ${move}`);
  return (await applyMove(db, { ...write, insert: row, payment: options.payment }))!;
}

// The store's statement of a move, with what it returns of the task.
type Apply<T> = (db: SqlDb, write: MoveWrite) => Promise<Moved<T> | null>;

// The move's rules applied from `before.status`, written by the store's one conditional statement; null
// when the task is no longer there.
async function moveFrom<T>(apply: Apply<T>, db: SqlDb, taskId: string, move: MoveName, options: TransitionOptions, before: Pick<Task, 'status' | 'startedAt'>): Promise<Moved<T> | null> {
  const write = moveWrite(taskId, move, options, before);
  return write ? apply(db, write) : null;
}

/**
 * The move's rules (which states it leaves, the stamps it writes, the expiry job it ends) from
 * `before.status`, as the store's write; null when the move does not leave that status. For a caller
 * that makes the move a part of a bigger statement (moveCtes of stores/task-store.ts); `transition`
 * is the way otherwise.
 */
export function moveWrite(taskId: string, move: MoveName, options: TransitionOptions, before: Pick<Task, 'status' | 'startedAt'>): MoveWrite | null {
  const actor = options.by?.kind ?? SYSTEM.kind;
  if (!mayMove(move, actor)) throw new Error(`the lifecycle does not let ${actor} make the move ${move}`);
  const spec: Move = MOVES[move];
  if (!spec.from.includes(before.status)) return null;
  const { now } = options;
  const stamps: TaskChanges = {};
  if (spec.to === 'matched') stamps.matchedAt = now;
  // startedAt is the first time the work began, kept through input rounds.
  if (spec.to === 'in_progress' && !before.startedAt) stamps.startedAt = now;
  if (isTerminal(spec.to)) {
    stamps.finishedAt = now;
    // A finished task's token stops working.
    stamps.tokenHash = null;
  }
  const by = options.by ?? SYSTEM;
  // A finished task never expires: its pending expiry job goes with the move, rather than waking up hours
  // later to find nothing to do (and a table of such jobs growing with every task meanwhile). The expiry
  // job's own move leaves it alone: it is the job running.
  const removeJobKey = isTerminal(spec.to) && move !== 'expire' ? jobKey(expireTask, { taskId }) : null;
  return {
    taskId,
    action: move,
    from: before.status,
    to: spec.to,
    now,
    changes: { ...stamps, ...options.data },
    guard: options.where,
    history: { id: newId('evt'), actor: by.kind, actorId: by.id ?? null, note: by.note ?? null, data: by.data },
    notify: options.notify ?? null,
    removeJobKey,
    jobs: options.jobs,
    deliveryId: options.deliveryId,
    paymentMove: options.paymentMove,
  };
}
