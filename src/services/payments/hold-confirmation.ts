// What the requester's client library needs to confirm a task's card hold: its client secret, asked of
// the processor each time (the service never stores it), for as long as the hold waits for the requester.
// A declined or abandoned confirmation leaves the hold waiting, so the same secret serves the retry.
import { forbidden, notFound } from '../../errors.js';
import { taskPaymentKey } from '../../payments/keys.js';
import { ProviderError } from '../../payments/index.js';
import * as store from '../../stores/payment-store.js';
import type { Viewer } from '../accounts/index.js';
import type { PaymentContext } from './types.js';

export interface HoldConfirmation {
  clientSecret: string;
  amountCents: number;
}

// Null when there is nothing to confirm (not a card payment, already held or ended, or the hold is still
// being placed: the payment.authorize job places it).
export async function holdConfirmation(ctx: PaymentContext, viewer: Viewer, taskId: string): Promise<HoldConfirmation | null> {
  const payment = await store.paymentWithRequester(ctx.deps.sql, { taskId });
  if (!payment) throw notFound('task');
  if (payment.task.requesterId !== viewer.id) throw forbidden("only the task's requester confirms its payment");
  if (payment.method !== 'card' || payment.status !== 'pending' || !payment.intentId) return null;
  try {
    const clientSecret = await ctx.provider.holdClientSecret({ intentId: payment.intentId, idempotencyKey: taskPaymentKey(taskId, 'authorize') });
    return { clientSecret, amountCents: payment.amountCents };
  } catch (error) {
    // The processor cannot say now: the page says the hold is not ready and asks again.
    if (error instanceof ProviderError) {
      ctx.deps.logger.warn({ err: error, taskId }, 'could not read the hold to confirm');
      return null;
    }
    throw error;
  }
}
