// What every Stripe call takes first: the SDK's client and the webhook signing secret, and how a call's
// failure becomes a ProviderError.
import type Stripe from 'stripe';
import { ProviderError, type PaymentProvider } from '../provider.js';
import { toProviderError } from './errors.js';

export interface StripeContext {
  stripe: Stripe;
  webhookSecret: string;
}

// The input a provider method takes.
export type InputOf<M extends Exclude<keyof PaymentProvider, 'name'>> = Parameters<PaymentProvider[M]>[0];

export async function call<T>(operation: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw toProviderError(operation, err);
  }
}

export function retrieveIntent(ctx: StripeContext, intentId: string): Promise<Stripe.PaymentIntent> {
  return call('retrieve payment', () => ctx.stripe.paymentIntents.retrieve(intentId));
}

// No redirect-based methods: holds are confirmed off-session or by the requester with a card in the client
// library, and there is no return_url to come back to. Without this Stripe demands a return_url when
// confirming server-side.
export const NO_REDIRECT_METHODS = { enabled: true, allow_redirects: 'never' } as const;

export function clientSecretOf(intent: Stripe.PaymentIntent): string {
  if (intent.client_secret === null) {
    throw new ProviderError('Stripe returned a payment without a client secret', {
      code: 'unexpected_response',
      retryable: false,
    });
  }
  return intent.client_secret;
}
