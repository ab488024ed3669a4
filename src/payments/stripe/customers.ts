// A requester at Stripe: the customer, the setup of a card for later, the default card, its removal.
import { ProviderError, requireIdempotencyKey } from '../provider.js';
import { call, NO_REDIRECT_METHODS, type InputOf, type StripeContext } from './context.js';
import { hasStripeCode, toProviderError } from './errors.js';

export async function createCustomer({ stripe }: StripeContext, { userId, email, idempotencyKey }: InputOf<'createCustomer'>) {
  const customer = await call('create customer', () =>
    stripe.customers.create(
      { email, metadata: { userId } },
      { idempotencyKey: requireIdempotencyKey(idempotencyKey) },
    ),
  );
  return { customerId: customer.id };
}

export async function createSetupIntent({ stripe }: StripeContext, { customerId, idempotencyKey }: InputOf<'createSetupIntent'>) {
  const intent = await call('create setup intent', () =>
    stripe.setupIntents.create(
      { customer: customerId, usage: 'off_session', automatic_payment_methods: NO_REDIRECT_METHODS },
      { idempotencyKey: requireIdempotencyKey(idempotencyKey) },
    ),
  );
  if (intent.client_secret === null) {
    throw new ProviderError('Stripe returned a setup intent without a client secret', {
      code: 'unexpected_response',
      retryable: false,
    });
  }
  return { clientSecret: intent.client_secret, setupIntentId: intent.id };
}

export async function setDefaultPaymentMethod({ stripe }: StripeContext, { customerId, paymentMethodId }: InputOf<'setDefaultPaymentMethod'>) {
  let method = await call('retrieve payment method', () => stripe.paymentMethods.retrieve(paymentMethodId));
  const owner = typeof method.customer === 'string' ? method.customer : (method.customer?.id ?? null);
  if (owner !== null && owner !== customerId) {
    throw new ProviderError('The payment method belongs to another customer', {
      code: 'payment_method_not_owned',
      retryable: false,
    });
  }
  // Attaching twice is an error at Stripe, so attach only what is not ours yet.
  if (owner === null) {
    method = await call('attach payment method', () =>
      stripe.paymentMethods.attach(paymentMethodId, { customer: customerId }),
    );
  }
  // The attached id, not the one given: Stripe's test shortcuts (pm_card_visa)
  // come back from attach as a new method.
  const attachedId = method.id;
  await call('set default payment method', () =>
    stripe.customers.update(customerId, { invoice_settings: { default_payment_method: attachedId } }),
  );
  return { paymentMethodId: attachedId, brand: method.card?.brand ?? null, last4: method.card?.last4 ?? null };
}

export async function detachPaymentMethod({ stripe }: StripeContext, paymentMethodId: string): Promise<void> {
  try {
    await stripe.paymentMethods.detach(paymentMethodId);
  } catch (err) {
    // Already detached (or never attached): nothing is left to remove.
    if (hasStripeCode(err, 'payment_method_unexpected_state')) return;
    throw toProviderError('remove payment method', err);
  }
}
