// How a payment's status moves: one conditional update with its step's time, in a transaction that took
// the task's row lock first where it touches both.
import type { SqlTx } from '../../db/kysely.js';
import { withTransaction, type AfterCommit } from '../../db/transaction.js';
import type { Payment, PaymentStatus } from '../../generated/prisma/client.js';
import { enqueue } from '../../stores/job-store.js';
import { releasePayment } from '../../jobs/specs/payment-release.js';
import * as store from '../../stores/payment-store.js';
import { lockTask as lockTaskRow } from '../../stores/task-store.js';
import type { LockedTask, PaymentContext } from './types.js';

// The time of a step, written with the status it moves to (see heldAt and settledAt in schema.prisma).
export function stepTimeOf(to: PaymentStatus, now: Date): Partial<Payment> {
  if (to === 'authorized') return { heldAt: now };
  if (to === 'captured' || to === 'released' || to === 'refunded') return { settledAt: now };
  return {};
}

export const transaction = <T>(ctx: PaymentContext, work: (tx: SqlTx, afterCommit: AfterCommit) => Promise<T>) =>
  withTransaction(ctx.deps.sql, work, (error) => ctx.deps.logger.error({ err: error }, 'payment after-commit work failed'));

// One conditional update with its step's time (payment-store.ts).
export function move(ctx: PaymentContext, tx: SqlTx, paymentId: string, from: PaymentStatus[], to: PaymentStatus, data: store.PaymentChanges = {}): Promise<boolean> {
  const now = ctx.deps.clock.now();
  return store.movePayment(tx, { id: paymentId, from, to, now, changes: { ...data, ...stepTimeOf(to, now) } });
}

export const releaseJob = (tx: SqlTx, taskId: string, intentId?: string) =>
  enqueue(tx, releasePayment, intentId ? { taskId, intentId } : { taskId });

/**
 * Lock order: every transaction that changes both a task and its payment locks the task first, then the
 * payment; credit balances and agents come after the task too. Ending a task does so naturally (its
 * status update, then finalize), and so does matching (the task, then its new payment);
 * the hold confirmation, which starts from the payment, takes the task's row lock before touching the
 * payment. Two transactions taking the rows in opposite orders can deadlock, and PostgreSQL then aborts
 * one of them (40P01).
 */
// `removeJob`: the key of a pending job to remove in the same statement (one round trip for both).
export function lockTask(tx: SqlTx, taskId: string, removeJob: string | null = null): Promise<LockedTask | null> {
  return lockTaskRow(tx, taskId, removeJob);
}
