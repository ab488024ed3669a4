// What is particular to the simulated adapter; the shared behaviour is in provider-contract.test.ts.
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import {
  ProviderError,
  WebhookSignatureError,
  createSimulatedProvider,
  intentIdFromClientSecret,
  signSimulatedEvent,
} from '../../../src/payments/index.js';

const SECRET = 'whsec_simulated_test';
const provider = createSimulatedProvider({ webhookSecret: SECRET, idKey: randomBytes(32) });

const authorize = (idempotencyKey: string, paymentMethodId: string | null = null) =>
  provider.authorize({
    amountCents: 1000,
    currency: 'usd',
    customerId: 'cus_sim_1',
    paymentMethodId,
    taskId: 'task_1',
    description: 'Task',
    idempotencyKey,
  });

describe('simulated ids', () => {
  it('look like Stripe ids and client secrets', async () => {
    const result = await authorize('task_1:authorize');
    expect(result.status).toBe('requires_confirmation');
    if (result.status !== 'requires_confirmation') return;
    expect(result.intentId).toMatch(/^pi_sim_[0-9a-f]{24}$/);
    expect(result.clientSecret).toMatch(new RegExp(`^${result.intentId}_secret_[0-9a-f]{24}$`));
  });

  it('are the same for the same key, like a Stripe idempotent replay, and differ otherwise', async () => {
    expect(await authorize('task_1:authorize')).toEqual(await authorize('task_1:authorize'));
    expect((await authorize('task_2:authorize')).intentId).not.toBe((await authorize('task_1:authorize')).intentId);
    // Another server (another key) derives other ids from the same public task id.
    const other = createSimulatedProvider({ webhookSecret: SECRET, idKey: randomBytes(32) });
    const elsewhere = await other.authorize({
      amountCents: 1000,
      currency: 'usd',
      customerId: 'cus_sim_1',
      paymentMethodId: null,
      taskId: 'task_1',
      description: 'Task',
      idempotencyKey: 'task_1:authorize',
    });
    expect(elsewhere.intentId).not.toBe((await authorize('task_1:authorize')).intentId);
  });

  it('keep a saved card hold authorized with a client secret', async () => {
    const result = await authorize('task_3:authorize', 'pm_123');
    expect(result).toMatchObject({ status: 'authorized', clientSecret: expect.stringMatching(/_secret_/) });
  });
});

describe('intentIdFromClientSecret', () => {
  it.each([
    ['pi_sim_0123456789abcdef01234567_secret_abcdef', 'pi_sim_0123456789abcdef01234567'],
    ['pi_3MtwBwLkdIwHu7ix28a3tqPa_secret_YrKJUKribcBjcG8HVhfZluoGH', 'pi_3MtwBwLkdIwHu7ix28a3tqPa'],
  ])('reads the intent id from %s', (secret, intentId) => {
    expect(intentIdFromClientSecret(secret)).toBe(intentId);
  });

  it.each([['seti_123_secret_abc'], ['pi_123_secret_'], ['_secret_abc'], ['pi_123'], [''], ['pi_1 2_secret_x']])(
    'returns null for %j',
    (secret) => {
      expect(intentIdFromClientSecret(secret)).toBeNull();
    },
  );
});

describe('simulated cards', () => {
  it('accepts any pm_ id as a visa ending 4242', async () => {
    await expect(provider.setDefaultPaymentMethod({ customerId: 'cus_sim_1', paymentMethodId: 'pm_anything' })).resolves.toEqual({
      paymentMethodId: 'pm_anything',
      brand: 'visa',
      last4: '4242',
    });
  });

  it('refuses something that is not a payment method id', async () => {
    const error = await provider
      .setDefaultPaymentMethod({ customerId: 'cus_sim_1', paymentMethodId: '4242424242424242' })
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ProviderError);
    // Even a card number pasted into the wrong field is not echoed back.
    expect((error as Error).message).not.toContain('4242424242424242');
  });

  it('declines pm_card_declined for holds and charges', async () => {
    expect(await authorize('task_4:authorize', 'pm_card_declined')).toMatchObject({
      status: 'declined',
      intentId: expect.stringMatching(/^pi_sim_/),
    });
    const charge = await provider.charge({
      amountCents: 500,
      currency: 'usd',
      customerId: 'cus_sim_1',
      paymentMethodId: 'pm_card_declined',
      description: 'Credits',
      idempotencyKey: 'credits_1',
      metadata: {},
    });
    expect(charge).toEqual({ status: 'declined', message: 'Your card was declined.' });
  });

  it('refuses amounts that are not positive whole cents', async () => {
    for (const amountCents of [0, -5, 10.5]) {
      await expect(
        provider.authorize({ amountCents, currency: 'usd', customerId: 'c', paymentMethodId: null, taskId: 't', description: 'd', idempotencyKey: 'k' }),
      ).rejects.toMatchObject({ code: 'invalid_amount' });
    }
  });

  it('only transfers to connected account ids', async () => {
    await expect(
      provider.transfer({ amountCents: 100, currency: 'usd', destinationAccountId: 'user_1', transferGroup: 't', idempotencyKey: 'k' }),
    ).rejects.toMatchObject({ code: 'resource_missing' });
  });

  it('sends onboarding straight back to the return URL, marked as simulated', async () => {
    const { url } = await provider.createOnboardingLink({
      accountId: 'acct_sim_1',
      refreshUrl: 'https://app.test/refresh',
      returnUrl: 'https://app.test/done?x=1',
    });
    expect(url).toBe('https://app.test/done?x=1&simulated_onboarding=acct_sim_1');
  });
});

describe('simulated webhooks', () => {
  const payload = JSON.stringify({
    id: 'evt_sim_1',
    type: 'payment_intent.succeeded',
    data: { object: { id: 'pi_sim_1', object: 'payment_intent', status: 'succeeded' } },
  });

  it('verifies its own signature over the raw body', () => {
    const header = signSimulatedEvent(payload, SECRET);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(provider.parseWebhook(Buffer.from(payload), header)).toEqual({
      id: 'evt_sim_1',
      type: 'payment_intent.succeeded',
      intentId: 'pi_sim_1',
      status: 'succeeded',
    });
  });

  it('signs exactly as Stripe does', () => {
    const timestamp = 1_900_000_000;
    expect(signSimulatedEvent(payload, SECRET, timestamp)).toBe(
      Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET, timestamp }),
    );
  });

  it('accepts any one valid v1 signature, as during a secret rotation', () => {
    const valid = signSimulatedEvent(payload, SECRET);
    const [t, v1] = valid.split(',');
    expect(() => provider.parseWebhook(Buffer.from(payload), `${t},v1=${'0'.repeat(64)},${v1}`)).not.toThrow();
  });

  it('refuses malformed headers and bodies that are not events', () => {
    for (const header of ['', 'v1=abc', 't=123', 'nonsense']) {
      expect(() => provider.parseWebhook(Buffer.from(payload), header)).toThrow(WebhookSignatureError);
    }
    const notJson = 'not json';
    expect(() => provider.parseWebhook(Buffer.from(notJson), signSimulatedEvent(notJson, SECRET))).toThrow(WebhookSignatureError);
    const notEvent = JSON.stringify({ hello: 'world' });
    expect(() => provider.parseWebhook(Buffer.from(notEvent), signSimulatedEvent(notEvent, SECRET))).toThrow(WebhookSignatureError);
  });
});

describe('the requester’s confirmation (the client library’s part)', () => {
  it('confirms a hold with its client secret, under a stable event id', async () => {
    const held = await authorize('task_9:authorize');
    if (held.status !== 'requires_confirmation') throw new Error('expected an unconfirmed hold');
    const input = { clientSecret: held.clientSecret, idempotencyKey: 'task_9:authorize', paymentMethodId: 'pm_card_visa' };
    const confirmed = provider.confirmHold(input);
    expect(confirmed).toEqual({ status: 'authorized', intentId: held.intentId, eventId: expect.stringMatching(/^evt_sim_/) });
    expect(provider.confirmHold(input)).toEqual(confirmed);
  });

  it('refuses a secret that is not the hold’s, and declines a declining card', async () => {
    const held = await authorize('task_10:authorize');
    if (held.status !== 'requires_confirmation') throw new Error('expected an unconfirmed hold');
    const other = await authorize('task_11:authorize');
    if (other.status !== 'requires_confirmation') throw new Error('expected an unconfirmed hold');
    expect(() => provider.confirmHold({ clientSecret: other.clientSecret, idempotencyKey: 'task_10:authorize', paymentMethodId: 'pm_card_visa' })).toThrow(ProviderError);
    expect(provider.confirmHold({ clientSecret: held.clientSecret, idempotencyKey: 'task_10:authorize', paymentMethodId: 'pm_card_declined' })).toMatchObject({
      status: 'declined',
      intentId: held.intentId,
    });
  });
});
