// Per-requester, per-agent credits. A balance changes only through conditional or additive SQL, never by
// writing a value read earlier, so concurrent uses and purchases cannot lose an update or go below zero.
// Every movement is a ledger row: grant, purchase (+n), use (-1 at matching), refund (+1 when the task
// did not complete).
import { z } from 'zod';
import type { Deps } from '../deps.js';
import { isForeignKeyViolation } from '../db/errors.js';
import { enqueue } from '../stores/job-store.js';
import * as creditStore from '../stores/credit-store.js';
import { addCredits } from '../stores/credit-store.js';
import { userById } from '../stores/accounts-store.js';
import { agentById } from '../stores/agent-store.js';
import { refundPurchase } from '../jobs/specs/payment-refund-purchase.js';
import { AppError, invalid, notFound } from '../errors.js';
import { newId } from '../ids.js';
import { ensureCustomer } from '../payments/customers.js';
import { CURRENCY } from '../payments/fees.js';
import { creditPurchaseKey } from '../payments/keys.js';
import { ProviderError, type PaymentProvider } from '../payments/provider.js';
import type { Viewer } from './accounts/index.js';
import { parseOrInvalid } from './validation.js';

// The processor's largest single charge (USD), so a purchase is refused here rather than there.
const MAX_PURCHASE_CENTS = 99_999_999;

// An administrator's grant (CLI).
const grantInput = z.object({
  userId: z.string().min(1, 'is required'),
  agentId: z.string().min(1, 'is required'),
  count: z.number().int('must be a whole number').min(1, 'must be at least 1').max(100_000, 'must be at most 100000'),
});

// A purchase (BuyCreditsInput in schema/billing.ts, where it is checked).
export const purchaseInput = z.object({
  agentId: z.string().min(1, 'is required'),
  quantity: z.number().int('must be a whole number').min(1, 'must be at least 1').max(1000, 'must be at most 1000'),
});

export function creditService(deps: Deps, provider: PaymentProvider) {
  const { clock } = deps;

  const balanceOf = (userId: string, agentId: string): Promise<number> => creditStore.balanceOf(deps.sql, userId, agentId);

  return {
    balanceOf,

    balances: (userId: string) => creditStore.balancesOf(deps.sql, userId),

    ledger: (userId: string, agentId?: string) => creditStore.ledgerOf(deps.sql, userId, agentId),

    // Administration (CLI): credits given, not bought.
    async grant(raw: { userId: string; agentId: string; count: number }): Promise<{ userId: string; agentId: string; balance: number }> {
      const { userId, agentId, count } = parseOrInvalid(grantInput, raw);
      if (!(await userById(deps.sql, userId))) throw notFound('user');
      if (!(await agentById(deps.sql, agentId))) throw notFound('agent');
      const balance = (await deps.sql
        .transaction()
        .execute((tx) => addCredits(tx, { userId, agentId, amount: count, entryId: newId('cle'), kind: 'grant', now: clock.now() })))!;
      return { userId, agentId, balance };
    },

    /**
     * Buys `quantity` credits at the agent's current price with the saved card, charged at once. With a
     * request key (the Idempotency-Key header) a repeated purchase charges once and credits once, even when
     * the first attempt died between the charge and the ledger.
     */
    async buy(viewer: Viewer, { agentId, quantity }: z.output<typeof purchaseInput>, requestKey: string | null) {
      const agent = await agentById(deps.sql, agentId);
      if (!agent) throw new AppError('NOT_FOUND', 'agent not found', { field: 'agentId' });
      if (agent.priceCents === 0) throw invalid('agentId', 'this agent is free; its tasks need no credits');
      const amountCents = agent.priceCents * quantity;
      if (amountCents > MAX_PURCHASE_CENTS) throw invalid('quantity', `the purchase would exceed ${MAX_PURCHASE_CENTS} cents; buy fewer credits`);

      const { user, customerId } = await ensureCustomer(deps.sql, provider, viewer.id, clock.now()).catch(unavailable);
      if (!user.defaultPaymentMethodId) {
        throw new AppError('PAYMENT_REQUIRED', 'save a card first: POST /v1/billing/setup-intent, then POST /v1/billing/payment-method');
      }
      const charge = await provider
        .charge({
          amountCents,
          currency: CURRENCY,
          customerId,
          paymentMethodId: user.defaultPaymentMethodId,
          description: `${quantity} credit(s) for agent ${agent.name}`,
          idempotencyKey: creditPurchaseKey(viewer.id, requestKey ?? newId('buy')),
          metadata: { userId: viewer.id, agentId, quantity: String(quantity) },
        })
        .catch(unavailable);
      if (charge.status === 'declined') throw new AppError('PAYMENT_REQUIRED', charge.message);

      let balance: number | null;
      try {
        // The intent id is unique in the ledger: a replayed charge finds its purchase already credited.
        balance = await deps.sql
          .transaction()
          .execute((tx) =>
            addCredits(tx, { userId: viewer.id, agentId, amount: quantity, entryId: newId('cle'), kind: 'purchase', intentId: charge.intentId, amountCents, now: clock.now() }),
          );
      } catch (error) {
        if (!isForeignKeyViolation(error)) throw error;
        // The agent was deleted while the card was charged (its deletion found no credits to protect yet):
        // nothing is credited, and a job gives the money back, retried until the processor has done it.
        await enqueue(deps.sql, refundPurchase, { intentId: charge.intentId });
        throw new AppError('NOT_FOUND', 'the agent was deleted during the purchase; the charge is being refunded', {
          field: 'agentId',
          details: { refundedIntentId: charge.intentId },
        });
      }
      return { agentId, quantity, amountCents, balance: balance ?? (await balanceOf(viewer.id, agentId)) };
    },

    // Job: the refund of a purchase that could not be credited. The key is the intent's, so a rerun
    // (jobs run at least once) repeats the same processor call.
    async refundPurchase(intentId: string): Promise<void> {
      await provider.refund({ intentId, idempotencyKey: `refund:${intentId}` });
    },
  };
}

// Processor failures reach the caller as 503 (try again) or 402 (this card or request will not work).
function unavailable(error: unknown): never {
  if (error instanceof ProviderError) {
    if (error.retryable) throw new AppError('UNAVAILABLE', 'the payment processor is unavailable; try again');
    throw new AppError('PAYMENT_REQUIRED', error.message);
  }
  throw error;
}

export type CreditService = ReturnType<typeof creditService>;
