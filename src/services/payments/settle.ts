// How a payment ends with its task: the decision in the transaction that ends the task (finalize), then
// the processor told by the payment.capture and payment.release jobs.
import type { SqlTx } from '../../db/kysely.js';
import type { Payment, PaymentStatus } from '../../generated/prisma/client.js';
import { newId } from '../../ids.js';
import { jobCall } from '../../stores/job-store.js';
import { capturePayment } from '../../jobs/specs/payment-capture.js';
import { ProviderError } from '../../payments/index.js';
import { platformFeeCents } from '../../payments/fees.js';
import { taskPaymentKey } from '../../payments/keys.js';
import { giveCreditBack } from '../../stores/credit-store.js';
import * as store from '../../stores/payment-store.js';
import { move, releaseJob, stepTimeOf } from './moves.js';
import { payOut } from './payouts.js';
import type { PaymentContext, TaskOutcome } from './types.js';

// The payment's final move for how the task ended when that is its status move alone (a free payment, a
// credit's completion), so the statement of the task's own finishing move can carry it (tasks/finish.ts);
// null when settling takes more (a credit given back, a card's capture or release).
export function plainSettle(payment: Pick<Payment, 'id' | 'method'>, outcome: TaskOutcome, now: Date): store.PaymentMove | null {
  const completed = outcome === 'completed';
  const to: PaymentStatus | null = payment.method === 'free' ? (completed ? 'captured' : 'released') : payment.method === 'credit' && completed ? 'captured' : null;
  return to ? { id: payment.id, from: ['authorized'], to, changes: stepTimeOf(to, now) } : null;
}

// The payment's final move for how the task ended; false when its conditional move found it elsewhere.
async function settle(ctx: PaymentContext, tx: SqlTx, payment: Payment, outcome: TaskOutcome): Promise<boolean> {
  const { clock, config, logger } = ctx.deps;
  const { taskId } = payment;
  const completed = outcome === 'completed';
  const plain = plainSettle(payment, outcome, clock.now());
  if (plain) return store.movePayment(tx, { ...plain, now: clock.now() });
  if (payment.method === 'credit') {
    // The credit was taken at matching (ledger 'use'); completion makes that final, anything else gives it back.
    if (!(await move(ctx, tx, payment.id, ['authorized'], 'refunded'))) return false;
    await giveCreditBack(tx, taskId, newId('cle'), clock.now());
    return true;
  }
  if (completed && payment.status === 'authorized') {
    // The capture decision and its job in one statement; the job only when the move was made.
    const feeCents = platformFeeCents(payment.amountCents, config.platformFeeBps);
    const now = clock.now();
    return store.movePayment(tx, { id: payment.id, from: ['authorized'], to: 'captured', now, changes: { feeCents, settledAt: now }, job: jobCall(capturePayment, { taskId }) });
  }
  // Not completed, or completed without a hold to capture: whatever is held is let go.
  if (completed) logger.error({ taskId, status: payment.status }, 'task completed without an authorized payment; releasing it');
  if (!(await move(ctx, tx, payment.id, ['pending', 'authorized'], 'released'))) return false;
  await releaseJob(tx, taskId);
  return true;
}

// Inside the transaction that moves the task to a terminal state. Idempotent: a second call finds
// the payment already final and changes nothing. `known`: the payment as the caller read it with the
// task; used when it was authorized (the state it keeps while the agent works), and read again when
// its conditional move finds it changed.
export async function finalize(ctx: PaymentContext, tx: SqlTx, taskId: string, outcome: TaskOutcome, known?: Payment | null): Promise<void> {
  if (known && known.taskId === taskId && known.status === 'authorized' && (await settle(ctx, tx, known, outcome))) return;
  const payment = await store.paymentOfTask(tx, taskId);
  if (payment) await settle(ctx, tx, payment, outcome);
}

// Job payment.capture: the decision is already recorded (status captured); this tells the processor,
// then pays the owner's share in the same run (a retry captures again under the same key, which the
// processor answers with the capture already made, and goes on to the transfer).
export async function capture(ctx: PaymentContext, taskId: string): Promise<void> {
  const { deps, provider } = ctx;
  const payment = await store.payoutOf(deps.sql, taskId);
  if (!payment || payment.method !== 'card' || payment.status !== 'captured' || !payment.intentId) return;
  try {
    const { receiptUrl } = await provider.capture({ intentId: payment.intentId, idempotencyKey: taskPaymentKey(taskId, 'capture') });
    if (receiptUrl && receiptUrl !== payment.receiptUrl) await store.recordReceipt(deps.sql, payment.id, receiptUrl, deps.clock.now());
  } catch (error) {
    if (error instanceof ProviderError && !error.retryable) {
      // E.g. the hold expired at the processor. Retrying cannot help; the status stays captured (the
      // decision) and the failure is recorded, so no share is transferred for money never received.
      deps.logger.error({ err: error, taskId }, 'capture refused by the payment processor');
      await store.recordFailure(deps.sql, payment.id, `capture failed: ${error.message}`.slice(0, 500), deps.clock.now());
      return;
    }
    throw error;
  }
  await payOut(ctx, payment);
}

// Job payment.release: cancels the PaymentIntent of a released payment (a late hold included).
export async function release(ctx: PaymentContext, taskId: string, lateIntentId?: string): Promise<void> {
  const payment = await store.paymentOfTask(ctx.deps.sql, taskId);
  if (!payment || payment.method !== 'card' || payment.status !== 'released') return;
  const intentId = lateIntentId ?? payment.intentId;
  if (!intentId) return;
  try {
    await ctx.provider.release({ intentId, idempotencyKey: taskPaymentKey(taskId, 'release') });
  } catch (error) {
    if (error instanceof ProviderError && !error.retryable) {
      ctx.deps.logger.error({ err: error, taskId }, 'release refused by the payment processor');
      return;
    }
    throw error;
  }
}
