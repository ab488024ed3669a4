// A user's billing: the saved card (who pays), credit balances, and the connected account that receives
// the owner's share of their agents' tasks (who is paid).
import { z } from 'zod';
import type { Deps } from '../deps.js';
import { AppError, invalid, notFound } from '../errors.js';
import { setDefaultCard, userById } from '../stores/accounts-store.js';
import { balancesOf } from '../stores/credit-store.js';
import { owedCents } from '../stores/payment-store.js';
import { newId } from '../ids.js';
import { ensureConnectedAccount, ensureCustomer } from '../payments/customers.js';
import { setupIntentKey } from '../payments/keys.js';
import { ProviderError } from '../payments/provider.js';
import type { Viewer } from './accounts.js';
import type { PaymentService } from './payments/index.js';

// A Stripe payment method id (also what the simulated provider accepts); card numbers never come here.
// Checked on SetDefaultPaymentMethodInput (schema/billing.ts).
export const paymentMethodId = z.string().trim().regex(/^pm_[A-Za-z0-9_]{1,200}$/, 'must be a payment method id (pm_…)');

export interface BillingSummary {
  card: { brand: string | null; last4: string | null } | null;
  credits: Array<{ userId: string; agentId: string; balance: number }>;
  payouts: { connected: boolean; owedCents: number };
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
      card: user.defaultPaymentMethodId ? { brand: user.cardBrand, last4: user.cardLast4 } : null,
      credits,
      payouts: {
        connected: user.connectAccountId !== null,
        owedCents: owed,
      },
    };
  }

  return {
    summary: (viewer: Viewer) => summary(viewer.id),

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
      await setDefaultCard(deps.sql, viewer.id, { defaultPaymentMethodId: saved.paymentMethodId, cardBrand: saved.brand, cardLast4: saved.last4 }, deps.clock.now());
      return summary(viewer.id);
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
