// The processor's events (its webhook), each handled once: a hold that now stands is recorded, one that
// came too late is let go.
import type { SqlTx } from '../../db/kysely.js';
import type { AfterCommit } from '../../db/transaction.js';
import type { CardSummary, ProviderEvent } from '../../payments/index.js';
import * as store from '../../stores/payment-store.js';
import { holdPlaced } from './holds.js';
import { releaseJob, transaction } from './moves.js';
import type { PaymentContext } from './types.js';

// One event from the processor, in the transaction that records its id as processed.
async function applyEvent(ctx: PaymentContext, tx: SqlTx, afterCommit: AfterCommit, event: ProviderEvent, card: CardSummary | null): Promise<void> {
  if (!event.intentId) return;
  const payment = await store.paymentOfIntent(tx, event.intentId);
  // Not a task's hold (a credit purchase, or another system's intent on the same account).
  if (!payment) return;
  if (event.type === 'payment_intent.amount_capturable_updated') {
    if (payment.status === 'pending') await holdPlaced(ctx, tx, afterCommit, payment, event.intentId, card, 'processor');
    else if (payment.status === 'released') await releaseJob(tx, payment.taskId, event.intentId);
  }
}

// Which card a hold stands on, asked before the event's transaction (no processor call inside one). Only
// for the words on the task page, so a processor that cannot say now leaves it unknown rather than
// holding up the task.
async function cardOfHold(ctx: PaymentContext, event: ProviderEvent): Promise<CardSummary | null> {
  if (event.type !== 'payment_intent.amount_capturable_updated' || !event.intentId) return null;
  try {
    return await ctx.provider.holdCard(event.intentId);
  } catch (error) {
    ctx.deps.logger.warn({ err: error, intentId: event.intentId }, 'could not learn which card holds the payment');
    return null;
  }
}

export async function handleEvent(ctx: PaymentContext, event: ProviderEvent): Promise<'processed' | 'duplicate'> {
  const card = await cardOfHold(ctx, event);
  return transaction(ctx, async (tx, afterCommit) => {
    // The insert waits for a concurrent delivery of the same event, so one of them handles it.
    if (!(await store.recordWebhookEvent(tx, event.id, event.type))) return 'duplicate';
    await applyEvent(ctx, tx, afterCommit, event, card);
    return 'processed';
  });
}

// POST /v1/webhooks/stripe: verifies the signature over the raw bytes, then handles each event id once.
export async function handleWebhook(ctx: PaymentContext, rawBody: Buffer, signature: string | undefined): Promise<'processed' | 'duplicate'> {
  return handleEvent(ctx, ctx.provider.parseWebhook(rawBody, signature));
}
