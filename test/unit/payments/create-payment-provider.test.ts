import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createPaymentProvider, isSimulatedProvider, signSimulatedEvent } from '../../../src/payments/index.js';

describe('createPaymentProvider', () => {
  const payload = JSON.stringify({ id: 'evt_1', type: 'payment_intent.canceled', data: { object: { id: 'pi_1', object: 'payment_intent', status: 'canceled' } } });
  const serverKey = randomBytes(32);

  it('is simulated without a Stripe key, and accepts no event signed with a secret of the source', () => {
    const provider = createPaymentProvider({ serverKey });
    expect(provider.name).toBe('simulated');
    // The constant this adapter used to fall back on, public in the source.
    expect(() => provider.parseWebhook(Buffer.from(payload), signSimulatedEvent(payload, 'whsec_simulated_dev_only'))).toThrow();
  });

  it('uses a configured webhook secret for the simulator too', () => {
    const provider = createPaymentProvider({ serverKey, stripeWebhookSecret: 'whsec_configured' });
    expect(provider.parseWebhook(Buffer.from(payload), signSimulatedEvent(payload, 'whsec_configured')).status).toBe('canceled');
  });

  it('derives client secrets from the server key, so a task id alone does not give them', async () => {
    const hold = (key: Buffer) =>
      createPaymentProvider({ serverKey: key, stripeWebhookSecret: 'whsec_configured' }).authorize({
        amountCents: 500,
        currency: 'usd',
        customerId: 'cus_sim_1',
        paymentMethodId: null,
        taskId: 'task_public',
        description: 'Task',
        idempotencyKey: 'task:task_public:authorize',
      });
    const [here, there, again] = await Promise.all([hold(serverKey), hold(randomBytes(32)), hold(serverKey)]);
    if (here.status !== 'requires_confirmation' || there.status !== 'requires_confirmation') throw new Error('expected unconfirmed holds');
    expect(again).toEqual(here);
    expect(there.clientSecret).not.toBe(here.clientSecret);
    const provider = createPaymentProvider({ serverKey });
    if (!isSimulatedProvider(provider)) throw new Error('expected the simulated provider');
    expect(() => provider.confirmHold({ clientSecret: there.clientSecret, idempotencyKey: 'task:task_public:authorize', paymentMethodId: 'pm_card_visa' })).toThrow();
  });

  it('is Stripe when a secret key is set', () => {
    expect(createPaymentProvider({ serverKey, stripeSecretKey: 'sk_test_x', stripeWebhookSecret: 'whsec_x' }).name).toBe('stripe');
  });

  it('refuses a Stripe key without a webhook secret', () => {
    expect(() => createPaymentProvider({ serverKey, stripeSecretKey: 'sk_test_x' })).toThrow(/STRIPE_WEBHOOK_SECRET/);
  });
});
