// The task lifecycle, in one place. Every change of status goes through `transition`, a conditional
// update on the current status, so two concurrent calls can never both succeed.
import type { Tx } from '../db/client.js';
import type { Prisma, Task, TaskStatus } from '../generated/prisma/client.js';
import { conflict, notFound } from '../errors.js';

export const TERMINAL: readonly TaskStatus[] = ['completed', 'failed', 'cancelled', 'expired'];
export const NON_TERMINAL: readonly TaskStatus[] = ['pending', 'matched', 'in_progress'];

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
  // An agent may answer before its delivery's response is processed, so matched is allowed too.
  complete: { from: ['matched', 'in_progress'], to: 'completed' },
  fail: { from: ['matched', 'in_progress'], to: 'failed' },
  cancel: { from: NON_TERMINAL, to: 'cancelled' },
  expire: { from: NON_TERMINAL, to: 'expired' },
  // Delivery was given up while the task still waited for its agent.
  undeliverable: { from: ['matched'], to: 'failed' },
  // The card hold was declined; the task never reached its agent.
  unpaid: { from: ['pending'], to: 'failed' },
} as const satisfies Record<string, Move>;

export type MoveName = keyof typeof MOVES;

export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL.includes(status);
}

/**
 * Applies a move to the task when its status allows it, together with `data`. Returns the updated task,
 * or, for an idempotent repeat, the task unchanged. Otherwise 409 naming the current status.
 */
export async function transition(
  tx: Tx,
  taskId: string,
  move: MoveName,
  data: Prisma.TaskUncheckedUpdateManyInput = {},
): Promise<{ task: Task; changed: boolean }> {
  const spec: Move = MOVES[move];
  const now = new Date();
  const stamps: Prisma.TaskUncheckedUpdateManyInput = {};
  if (spec.to === 'matched') stamps.matchedAt = now;
  // Every move into in_progress comes from matched: startedAt is the first time the work began, kept after.
  if (spec.to === 'in_progress') stamps.startedAt = now;
  if (isTerminal(spec.to)) {
    stamps.finishedAt = now;
    // A finished task's token stops working.
    stamps.tokenHash = null;
  }
  const { count } = await tx.task.updateMany({
    where: { id: taskId, status: { in: [...spec.from] } },
    data: { ...stamps, ...data, status: spec.to, updatedAt: now },
  });
  const task = await tx.task.findUnique({ where: { id: taskId } });
  if (!task) throw notFound('task');
  if (count === 1) return { task, changed: true };
  if (spec.idempotentFrom?.includes(task.status)) return { task, changed: false };
  throw conflict(`cannot ${move} a task that is ${task.status}`, { status: task.status });
}
