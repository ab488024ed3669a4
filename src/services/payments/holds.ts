// A card-paid task's hold: placed after the matching transaction (inline, or by the payment.authorize job),
// then recorded as standing, declined, or waiting for the requester's confirmation.
import type { SqlTx } from '../../db/kysely.js';
import type { AfterCommit } from '../../db/transaction.js';
import type { Payment } from '../../generated/prisma/client.js';
import { AppError } from '../../errors.js';
import { jobKey } from '../../jobs/spec.js';
import { authorizePayment } from '../../jobs/specs/payment-authorize.js';
import type { AuthorizeResult, CardSummary } from '../../payments/index.js';
import { ensureCustomer } from '../../payments/customers.js';
import { CURRENCY } from '../../payments/fees.js';
import { taskPaymentKey } from '../../payments/keys.js';
import * as store from '../../stores/payment-store.js';
import { lockTask, move, releaseJob, transaction } from './moves.js';
import { isHopeless } from './provider.js';
import type { CardAuthorization, KnownHold, PaymentContext } from './types.js';

export const declined = (message: string) => new AppError('PAYMENT_REQUIRED', `the card was declined: ${message}`, { details: { reason: 'payment_declined' } });

// The processor reports (or the inline call learned) that the hold stands, on `card` when it said which.
// The authorize job queued as the safety net has nothing left to do once this commits (the hold is
// recorded, or let go when the task ended meanwhile): unless it is the job running this, it is removed
// with the lock, rather than left to wake up AUTHORIZE_JOB_DELAY_MS later to find the hold placed.
export async function holdPlaced(ctx: PaymentContext, tx: SqlTx, afterCommit: AfterCommit, payment: Payment, intentId: string, card: CardSummary | null, from: 'request' | 'job' | 'processor'): Promise<void> {
  const safetyNet = from === 'job' ? null : jobKey(authorizePayment, { taskId: payment.taskId });
  const locked = await lockTask(tx, payment.taskId, safetyNet);
  const shown = card ? { cardBrand: card.brand.slice(0, 40), cardLast4: card.last4.slice(0, 4) } : {};
  if (await move(ctx, tx, payment.id, ['pending'], 'authorized', { intentId, ...shown })) await ctx.hooks.onAuthorized(tx, payment.taskId, afterCommit, locked);
  else await releaseIfEnded(ctx, tx, payment, intentId);
}

// The task ended while its hold was being placed: the hold is let go.
async function releaseIfEnded(ctx: PaymentContext, tx: SqlTx, payment: Payment, intentId: string): Promise<void> {
  const current = await store.paymentById(tx, payment.id);
  if (current?.status !== 'released') return;
  await store.recordLateIntent(tx, payment.id, intentId, ctx.deps.clock.now());
  await releaseJob(tx, payment.taskId, intentId);
}

async function recordDecline(ctx: PaymentContext, payment: Payment, intentId: string | null, message: string): Promise<void> {
  await transaction(ctx, async (tx, afterCommit) => {
    if (!(await move(ctx, tx, payment.id, ['pending'], 'released', { failureMessage: message.slice(0, 500), ...(intentId ? { intentId } : {}) }))) return;
    // A declined intent could still be confirmed later with another card; cancel it so it cannot.
    if (intentId) await releaseJob(tx, payment.taskId, intentId);
    const onDeclined = ctx.hooks.onDeclined;
    if (onDeclined) afterCommit(() => onDeclined(payment.taskId, message));
  });
}

async function rememberIntent(ctx: PaymentContext, payment: Payment, intentId: string, autoCharged: boolean): Promise<boolean> {
  return transaction(ctx, async (tx) => {
    if (await move(ctx, tx, payment.id, ['pending'], 'pending', { intentId, autoCharged })) return true;
    await releaseIfEnded(ctx, tx, payment, intentId);
    return false;
  });
}

/**
 * Places the hold for a card-paid task. Called inline after task creation (`from: 'request'`, which
 * needs the client secret) and by the payment.authorize job (the safety net). Both send the key
 * task:<id>:authorize, so the processor creates one PaymentIntent per task however often this runs.
 */
async function placeHold(ctx: PaymentContext, taskId: string, from: 'request' | 'job', known?: KnownHold): Promise<CardAuthorization> {
  const { deps, provider } = ctx;
  const payment = known
    ? { ...known.payment, task: { requesterId: known.requester.id } }
    : await store.paymentWithRequester(deps.sql, { taskId });
  if (!payment || payment.method !== 'card') return { autoCharged: false, clientSecret: null };
  if (payment.status !== 'pending') {
    if (payment.status === 'released' && payment.failureMessage && from === 'request') throw declined(payment.failureMessage);
    return { autoCharged: payment.autoCharged, clientSecret: null };
  }
  // A hold already asked for waits for the requester's confirmation; the job has nothing to add.
  if (from === 'job' && payment.intentId) return { autoCharged: payment.autoCharged, clientSecret: null };

  let result: AuthorizeResult;
  try {
    const { user, customerId } = await ensureCustomer(deps.sql, provider, payment.task.requesterId, deps.clock.now(), known?.requester);
    // autoCharged was decided at matching; a card removed since then leaves the requester to confirm.
    const paymentMethodId = payment.autoCharged ? user.defaultPaymentMethodId : null;
    result = await provider.authorize({
      amountCents: payment.amountCents,
      currency: CURRENCY,
      customerId,
      paymentMethodId,
      taskId,
      description: `Task ${taskId}`,
      idempotencyKey: taskPaymentKey(taskId, 'authorize'),
    });
  } catch (error) {
    if (isHopeless(error)) {
      result = { status: 'declined', intentId: null, message: error.message };
    } else {
      // A passing outage: the job retries with the same key. The request answers without a secret.
      if (from === 'job') throw error;
      deps.logger.warn({ err: error, taskId }, 'card hold not placed yet; the payment.authorize job will retry');
      return { autoCharged: payment.autoCharged, clientSecret: null };
    }
  }

  switch (result.status) {
    case 'declined':
      await recordDecline(ctx, payment, result.intentId, result.message);
      if (from === 'request') throw declined(result.message);
      return { autoCharged: payment.autoCharged, clientSecret: null };
    case 'requires_confirmation': {
      const stillPending = await rememberIntent(ctx, payment, result.intentId, false);
      return { autoCharged: false, clientSecret: stillPending ? result.clientSecret : null };
    }
    case 'authorized': {
      const { intentId, card } = result;
      await transaction(ctx, (tx, afterCommit) => holdPlaced(ctx, tx, afterCommit, payment, intentId, card, from));
      return { autoCharged: true, clientSecret: null };
    }
  }
}

// After the matching transaction committed, for card payments. Throws 402 when the card is declined.
export const authorizeCard = (ctx: PaymentContext, taskId: string, known?: KnownHold) => placeHold(ctx, taskId, 'request', known);

// Job payment.authorize.
export const authorizeFromJob = async (ctx: PaymentContext, taskId: string) => void (await placeHold(ctx, taskId, 'job'));
