// A user's billing: the saved card (who pays), credit balances, and the connected account that receives
// the owner's share of their agents' tasks (who is paid).
import { z } from 'zod';
import type { Deps } from '../deps.js';
import { AppError, invalid, notFound } from '../errors.js';
import { balancesOf } from '../stores/credit-store.js';
import { owedCents } from '../stores/payment-store.js';
import { newId } from '../ids.js';
import { ensureConnectedAccount, ensureCustomer } from '../payments/customers.js';
import { setupIntentKey } from '../payments/keys.js';
import { ProviderError } from '../payments/provider.js';
import type { PayoutAccountState } from '../payments/provider.js';
import { userById } from '../stores/accounts-store.js';
import * as billingStore from '../stores/billing-store.js';
import type { Viewer } from './accounts/index.js';
import type { PaymentService } from './payments/index.js';

// A Stripe payment method id (also what the simulated provider accepts); card numbers never come here.
// Checked on SetDefaultPaymentMethodInput (schema/billing.ts).
export const paymentMethodId = z.string().trim().regex(/^pm_[A-Za-z0-9_]{1,200}$/, 'must be a payment method id (pm_…)');

export interface BillingSummary {
  userId: string;
  card: { brand: string | null; last4: string | null } | null;
  credits: Array<{ userId: string; agentId: string; balance: number }>;
  payouts: { userId: string; connected: boolean; owedCents: number };
}

export interface PaymentSettings {
  processor: 'simulated' | 'stripe';
  publishableKey: string | null;
  testMode: boolean;
}

// Where payout onboarding stands: not started here, else as the processor says.
export type PayoutOnboardingState = 'not_started' | PayoutAccountState;

// How many rows of history and earnings a page shows at most.
export const MAX_BILLING_ROWS = 100;

// The first instant of the clock's month, in UTC (spending "this month").
export function monthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

// Processor failures reach the caller as 503 (try again) or 400 (the input will not work).
function fromProvider(field: string) {
  return (error: unknown): never => {
    if (error instanceof ProviderError) {
      if (error.retryable) throw new AppError('UNAVAILABLE', 'the payment processor is unavailable; try again');
      throw invalid(field, error.message);
    }
    throw error;
  };
}

export function billingService(deps: Deps, payments: Pick<PaymentService, 'provider' | 'retryOwedTransfers'>) {
    const { provider } = payments;

  async function summary(userId: string): Promise<BillingSummary> {
    const user = await userById(deps.sql, userId);
    if (!user) throw notFound('user');
    const credits = await balancesOf(deps.sql, userId);
    const owed = await owedCents(deps.sql, userId);
    return {
      userId,
      card: user.defaultPaymentMethodId ? { brand: user.cardBrand, last4: user.cardLast4 } : null,
      credits,
      payouts: {
        userId,
        connected: user.connectAccountId !== null,
        owedCents: owed,
      },
    };
  }

  return {
    summary: (viewer: Viewer) => summary(viewer.id),

    // What the dashboard needs to pay: which processor, the key for its client library, and whether money
    // is real (the simulated processor, or Stripe's test keys, move none).
    settings(): PaymentSettings {
      const { secretKey, publishableKey } = deps.config.stripe;
      const processor = provider.name;
      return {
        processor,
        publishableKey: processor === 'stripe' ? publishableKey : null,
        testMode: processor === 'simulated' || /^(sk|rk)_test_/.test(secretKey ?? ''),
      };
    },

    // Step one of saving a card: the client library collects it with this secret.
    async createSetupIntent(viewer: Viewer): Promise<{ clientSecret: string }> {
      const { customerId } = await ensureCustomer(deps.sql, provider, viewer.id, deps.clock.now()).catch(fromProvider('customer'));
      const { clientSecret } = await provider
        .createSetupIntent({ customerId, idempotencyKey: setupIntentKey(viewer.id, newId('seti')) })
        .catch(fromProvider('customer'));
      return { clientSecret };
    },

    // Step two: the collected method becomes the default, charged without the requester present.
    async setDefaultPaymentMethod(viewer: Viewer, methodId: string): Promise<BillingSummary> {
      const { customerId } = await ensureCustomer(deps.sql, provider, viewer.id, deps.clock.now()).catch(fromProvider('paymentMethodId'));
      const saved = await provider
        .setDefaultPaymentMethod({ customerId, paymentMethodId: methodId })
        .catch(fromProvider('paymentMethodId'));
      const before = await userById(deps.sql, viewer.id);
      await billingStore.recordCardOnFile(deps.sql, viewer.id, saved, deps.clock.now());
      // A replaced card is removed from the processor's customer too, so it cannot be charged later.
      const replaced = before?.defaultPaymentMethodId;
      if (replaced && replaced !== saved.paymentMethodId) {
        await provider.detachPaymentMethod(replaced).catch((error: unknown) => deps.logger.warn({ err: error, userId: viewer.id }, 'the replaced card could not be removed at the processor'));
      }
      return summary(viewer.id);
    },

    // Removes the saved card: later tasks wait for the requester to confirm each hold.
    async removePaymentMethod(viewer: Viewer): Promise<BillingSummary> {
      const user = await userById(deps.sql, viewer.id);
      const methodId = user?.defaultPaymentMethodId;
      if (!methodId) return summary(viewer.id);
      await provider.detachPaymentMethod(methodId).catch(fromProvider('paymentMethodId'));
      await billingStore.clearCardOnFile(deps.sql, viewer.id, methodId, deps.clock.now());
      return summary(viewer.id);
    },

    paymentHistory: (userId: string, first: number) => billingStore.paymentHistory(deps.sql, userId, Math.min(first, MAX_BILLING_ROWS)),

    spentThisMonthCents: (userId: string) => billingStore.spentSince(deps.sql, userId, monthStart(deps.clock.now())),

    earnings: (userId: string, first: number) => billingStore.earnings(deps.sql, userId, Math.min(first, MAX_BILLING_ROWS)),

    earningTotals: (userId: string) => billingStore.earningTotals(deps.sql, userId),

    // Asked of the processor each time: onboarding finishes on its pages, not here.
    async payoutOnboardingState(userId: string): Promise<PayoutOnboardingState> {
      const user = await userById(deps.sql, userId);
      if (!user?.connectAccountId) return 'not_started';
      return provider.payoutAccountState(user.connectAccountId).catch(fromProvider('account'));
    },

    /**
     * The owner's connected account, created on first call, and a link to its hosted onboarding. Shares
     * owed from tasks completed before the account existed are queued for transfer again.
     */
    async startPayoutOnboarding(viewer: Viewer): Promise<{ url: string }> {
      const user = await userById(deps.sql, viewer.id);
      if (!user) throw notFound('user');
      const accountId = await ensureConnectedAccount(deps.sql, provider, user, deps.clock.now()).catch(fromProvider('account'));
      // Where the hosted onboarding sends the owner back; a dashboard page would live here.
      const base = `${deps.urls.base}/billing/payouts`;
      const { url } = await provider
        .createOnboardingLink({ accountId, refreshUrl: `${base}?onboarding=refresh`, returnUrl: `${base}?onboarding=done` })
        .catch(fromProvider('account'));
      await payments.retryOwedTransfers(viewer.id);
      return { url };
    },
  };
}

export type BillingService = ReturnType<typeof billingService>;
