// The payment processor as configured, and which of its failures are the card's rather than ours.
import type { Config } from '../../config.js';
import { ProviderError, createPaymentProvider, type PaymentProvider } from '../../payments/index.js';

export function paymentProviderOf(config: Config, serverKey: Buffer): PaymentProvider {
  return createPaymentProvider({
    serverKey,
    stripeSecretKey: config.stripe.secretKey ?? undefined,
    stripeWebhookSecret: config.stripe.webhookSecret ?? undefined,
    stripeApiHost: config.stripe.apiHost ?? undefined,
    stripeApiPort: config.stripe.apiPort ?? undefined,
    stripeApiProtocol: config.stripe.apiProtocol ?? undefined,
  });
}

// Provider failures that say the card or the request will never work, as opposed to our own set-up
// (bad key) or a passing outage, which are retried.
const OUR_FAULT = new Set(['provider_auth', 'internal', 'idempotency_conflict']);
export const isHopeless = (error: unknown): error is ProviderError =>
  error instanceof ProviderError && !error.retryable && !OUR_FAULT.has(error.code);
