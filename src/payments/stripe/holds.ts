// A task's card hold: a PaymentIntent with manual capture (transfer_group = the task's id), placed
// off-session or confirmed by the requester, then captured, released, or refunded.
import type Stripe from 'stripe';
import { ProviderError, requireIdempotencyKey, type AuthorizeResult, type CardSummary } from '../provider.js';
import { call, clientSecretOf, NO_REDIRECT_METHODS, retrieveIntent, type InputOf, type StripeContext } from './context.js';
import { asDecline, declineMessageOf, hasStripeCode, isUnexpectedState, notCapturable, toProviderError, unexpectedStatus } from './errors.js';

// Only the brand and last four digits of an expanded payment method are kept.
function cardOf(intent: Stripe.PaymentIntent): CardSummary | null {
  const method = intent.payment_method;
  const card = typeof method === 'object' && method !== null ? method.card : null;
  return card ? { brand: card.brand, last4: card.last4 } : null;
}

// Stripe's hosted receipt of the charge behind a captured intent (expanded latest_charge), if any.
function receiptOf(intent: Stripe.PaymentIntent): string | null {
  const charge = intent.latest_charge;
  const url = typeof charge === 'object' && charge !== null ? charge.receipt_url : null;
  return typeof url === 'string' && url.startsWith('https://') ? url.slice(0, 500) : null;
}

export async function authorize({ stripe }: StripeContext, input: InputOf<'authorize'>): Promise<AuthorizeResult> {
  const idempotencyKey = requireIdempotencyKey(input.idempotencyKey);
  const base = {
    amount: input.amountCents,
    currency: input.currency,
    customer: input.customerId,
    description: input.description,
    capture_method: 'manual',
    automatic_payment_methods: NO_REDIRECT_METHODS,
    transfer_group: input.taskId,
    metadata: { taskId: input.taskId },
  } satisfies Stripe.PaymentIntentCreateParams;

  if (input.paymentMethodId === null) {
    const intent = await call('create payment', () => stripe.paymentIntents.create(base, { idempotencyKey }));
    return { status: 'requires_confirmation', intentId: intent.id, clientSecret: clientSecretOf(intent) };
  }

  const paymentMethod = input.paymentMethodId;
  let intent: Stripe.PaymentIntent;
  try {
    intent = await stripe.paymentIntents.create(
      // Expanded so the card's brand and last four come back with the hold, without a second call.
      { ...base, payment_method: paymentMethod, off_session: true, confirm: true, expand: ['payment_method'] },
      { idempotencyKey },
    );
  } catch (err) {
    const declined = asDecline(err);
    if (declined) return { status: 'declined', intentId: declined.intentId, message: declined.message };
    throw toProviderError('authorize payment', err);
  }
  switch (intent.status) {
    case 'requires_capture':
      return { status: 'authorized', intentId: intent.id, clientSecret: intent.client_secret, card: cardOf(intent) };
    // Off-session confirmation normally fails instead of asking for action, but
    // if Stripe does ask, the requester can still finish it with the secret.
    case 'requires_action':
    case 'requires_confirmation':
      return { status: 'requires_confirmation', intentId: intent.id, clientSecret: clientSecretOf(intent) };
    case 'requires_payment_method':
      return { status: 'declined', intentId: intent.id, message: declineMessageOf(intent) };
    default:
      throw unexpectedStatus('authorize payment', intent.status);
  }
}

export async function holdCard({ stripe }: StripeContext, intentId: string): Promise<CardSummary | null> {
  const intent = await call('retrieve payment', () => stripe.paymentIntents.retrieve(intentId, { expand: ['payment_method'] }));
  return cardOf(intent);
}

export async function holdClientSecret(ctx: StripeContext, { intentId }: InputOf<'holdClientSecret'>): Promise<string> {
  return clientSecretOf(await retrieveIntent(ctx, intentId));
}

export async function capture({ stripe }: StripeContext, { intentId, idempotencyKey }: InputOf<'capture'>) {
  const key = requireIdempotencyKey(idempotencyKey);
  try {
    // The charge comes back with the capture, for its receipt page.
    const captured = await stripe.paymentIntents.capture(intentId, { expand: ['latest_charge'] }, { idempotencyKey: key });
    return { receiptUrl: receiptOf(captured) };
  } catch (err) {
    if (!isUnexpectedState(err)) throw toProviderError('capture payment', err);
    // A capture under a new key (or after a lost response) meets an intent that
    // may already be captured; Stripe's error does not say which state, so ask.
    const intent = await call('retrieve payment', () => stripe.paymentIntents.retrieve(intentId, { expand: ['latest_charge'] }));
    if (intent.status === 'succeeded') return { receiptUrl: receiptOf(intent) };
    throw notCapturable(intent.status);
  }
}

export async function release(ctx: StripeContext, { intentId, idempotencyKey }: InputOf<'release'>): Promise<void> {
  const key = requireIdempotencyKey(idempotencyKey);
  try {
    await ctx.stripe.paymentIntents.cancel(intentId, {}, { idempotencyKey: key });
  } catch (err) {
    if (!isUnexpectedState(err)) throw toProviderError('release payment', err);
    const intent = await retrieveIntent(ctx, intentId);
    if (intent.status === 'canceled') return;
    throw new ProviderError(`The payment cannot be released because it is ${intent.status}`, {
      code: intent.status === 'succeeded' ? 'payment_already_captured' : 'payment_not_releasable',
      retryable: false,
    });
  }
}

export async function refund({ stripe }: StripeContext, { intentId, idempotencyKey }: InputOf<'refund'>): Promise<void> {
  const key = requireIdempotencyKey(idempotencyKey);
  try {
    await stripe.refunds.create({ payment_intent: intentId }, { idempotencyKey: key });
  } catch (err) {
    // Under a new key (or after a lost response) the charge may already be refunded: that is done.
    if (hasStripeCode(err, 'charge_already_refunded')) return;
    throw toProviderError('refund payment', err);
  }
}
