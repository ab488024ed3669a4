// The owner's share of a captured card payment, transferred to their connected account (separate charges
// and transfers, transfer_group = task id), or owed until they connect one.
import type { Payment } from '../../generated/prisma/client.js';
import { enqueue } from '../../stores/job-store.js';
import { transferPayment } from '../../jobs/specs/payment-transfer.js';
import { ProviderError } from '../../payments/index.js';
import { CURRENCY } from '../../payments/fees.js';
import { taskPaymentKey } from '../../payments/keys.js';
import * as store from '../../stores/payment-store.js';
import type { PaymentContext } from './types.js';

// The owner's share to their connected account, once per payment (see transfer).
export async function payOut(ctx: PaymentContext, payment: Payment & { connectAccountId: string | null }): Promise<void> {
  const { deps, provider } = ctx;
  const { taskId } = payment;
  if (payment.method !== 'card' || payment.status !== 'captured' || payment.transferId || !payment.payeeId) return;
  if (payment.failureMessage) return;
  // The fee was fixed when the capture was decided; a later change of PLATFORM_FEE_BPS does not touch it.
  const amountCents = payment.amountCents - payment.feeCents;
  if (amountCents <= 0) return;
  if (!payment.connectAccountId) {
    deps.logger.info({ taskId, payeeId: payment.payeeId, amountCents }, 'owner has no connected account; the transfer is owed');
    return;
  }
  let transferId: string;
  try {
    ({ transferId } = await provider.transfer({
      amountCents,
      currency: CURRENCY,
      destinationAccountId: payment.connectAccountId,
      transferGroup: taskId,
      idempotencyKey: taskPaymentKey(taskId, 'transfer'),
    }));
  } catch (error) {
    if (error instanceof ProviderError && !error.retryable) {
      // Typically an account whose onboarding is unfinished; it stays owed.
      deps.logger.warn({ err: error, taskId }, 'transfer refused; it stays owed');
      return;
    }
    throw error;
  }
  await store.recordTransfer(deps.sql, payment.id, transferId, deps.clock.now());
}

// Job payment.transfer. Without an account the share stays owed: the payment keeps transferId null and
// payeeId, and is paid when the owner connects one (billing.startPayoutOnboarding).
export async function transfer(ctx: PaymentContext, taskId: string): Promise<void> {
  // The payment with what paying out needs: the payee's connected account (one statement).
  const payment = await store.payoutOf(ctx.deps.sql, taskId);
  if (payment) await payOut(ctx, payment);
}

// Owed shares of this owner (captured, not transferred): queued again, e.g. once they have an account.
export async function retryOwedTransfers(ctx: PaymentContext, payeeId: string): Promise<number> {
  const { sql } = ctx.deps;
  const owed = await store.owedTransfers(sql, payeeId);
  if (owed.length === 0) return 0;
  await sql.transaction().execute(async (tx) => {
    for (const taskId of owed) await enqueue(tx, transferPayment, { taskId });
  });
  return owed.length;
}
