// An immediate charge (credit purchases): confirmed off-session, captured at once.
import type Stripe from 'stripe';
import { requireIdempotencyKey, type ChargeResult } from '../provider.js';
import { NO_REDIRECT_METHODS, type InputOf, type StripeContext } from './context.js';
import { asDecline, declineMessageOf, toProviderError, unexpectedStatus } from './errors.js';

export async function charge({ stripe }: StripeContext, input: InputOf<'charge'>): Promise<ChargeResult> {
  const idempotencyKey = requireIdempotencyKey(input.idempotencyKey);
  let intent: Stripe.PaymentIntent;
  try {
    intent = await stripe.paymentIntents.create(
      {
        amount: input.amountCents,
        currency: input.currency,
        customer: input.customerId,
        payment_method: input.paymentMethodId,
        description: input.description,
        metadata: input.metadata,
        capture_method: 'automatic',
        automatic_payment_methods: NO_REDIRECT_METHODS,
        off_session: true,
        confirm: true,
      },
      { idempotencyKey },
    );
  } catch (err) {
    const declined = asDecline(err);
    if (declined) return { status: 'declined', message: declined.message };
    throw toProviderError('charge card', err);
  }
  if (intent.status === 'succeeded') return { status: 'succeeded', intentId: intent.id };
  if (intent.status === 'requires_payment_method' || intent.status === 'requires_action') {
    return { status: 'declined', message: declineMessageOf(intent) };
  }
  throw unexpectedStatus('charge card', intent.status);
}
