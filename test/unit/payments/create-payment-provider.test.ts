import { describe, expect, it } from 'vitest';
import { SIMULATED_DEV_WEBHOOK_SECRET, createPaymentProvider, signSimulatedEvent } from '../../../src/payments/index.js';

describe('createPaymentProvider', () => {
  const payload = JSON.stringify({ id: 'evt_1', type: 'payment_intent.canceled', data: { object: { id: 'pi_1', object: 'payment_intent', status: 'canceled' } } });

  it('is simulated without a Stripe key, verifying with the documented dev secret', () => {
    const provider = createPaymentProvider({});
    expect(provider.name).toBe('simulated');
    const header = signSimulatedEvent(payload, SIMULATED_DEV_WEBHOOK_SECRET);
    expect(provider.parseWebhook(Buffer.from(payload), header).intentId).toBe('pi_1');
  });

  it('uses a configured webhook secret for the simulator too', () => {
    const provider = createPaymentProvider({ stripeWebhookSecret: 'whsec_configured' });
    expect(() => provider.parseWebhook(Buffer.from(payload), signSimulatedEvent(payload, SIMULATED_DEV_WEBHOOK_SECRET))).toThrow();
    expect(provider.parseWebhook(Buffer.from(payload), signSimulatedEvent(payload, 'whsec_configured')).status).toBe('canceled');
  });

  it('is Stripe when a secret key is set', () => {
    expect(createPaymentProvider({ stripeSecretKey: 'sk_test_x', stripeWebhookSecret: 'whsec_x' }).name).toBe('stripe');
  });

  it('refuses a Stripe key without a webhook secret', () => {
    expect(() => createPaymentProvider({ stripeSecretKey: 'sk_test_x' })).toThrow(/STRIPE_WEBHOOK_SECRET/);
  });
});
