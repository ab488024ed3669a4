// The behaviour both adapters promise the payment service. The Stripe adapter runs
// through the official SDK against the local stand-in; the simulated one needs nothing.
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ProviderError,
  WebhookSignatureError,
  createSimulatedProvider,
  createStripeProvider,
  intentIdFromClientSecret,
  type PaymentProvider,
} from '../../../src/payments/index.js';
import { startStripeStandin, type StripeStandin } from '../../support/stripe-standin.js';

const WEBHOOK_SECRET = 'whsec_contract_test';

let standin: StripeStandin;

beforeAll(async () => {
  standin = await startStripeStandin();
});

afterAll(async () => {
  await standin.close();
});

const adapters: Array<[string, () => PaymentProvider]> = [
  ['simulated', () => createSimulatedProvider({ webhookSecret: WEBHOOK_SECRET, idKey: randomBytes(32) })],
  [
    'stripe',
    () =>
      createStripeProvider({
        secretKey: 'sk_test_contract',
        webhookSecret: WEBHOOK_SECRET,
        host: '127.0.0.1',
        port: standin.port,
        protocol: 'http',
        maxNetworkRetries: 0,
      }),
  ],
];

describe.each(adapters)('%s payment provider', (name, build) => {
  let provider: PaymentProvider;
  let run = 0;
  // Keys are per test run so the stand-in's idempotency store never links two tests.
  const key = (step: string) => `${name}-${run}-${step}`;

  async function customerWithCard(paymentMethodId = 'pm_card_visa') {
    const { customerId } = await provider.createCustomer({ userId: 'u1', email: 'u1@example.test', idempotencyKey: key('customer') });
    await provider.setDefaultPaymentMethod({ customerId, paymentMethodId });
    return customerId;
  }

  function hold(customerId: string, paymentMethodId: string | null, step = 'authorize') {
    return provider.authorize({
      amountCents: 1500,
      currency: 'usd',
      customerId,
      paymentMethodId,
      taskId: `task-${run}`,
      description: 'Task payment',
      idempotencyKey: key(step),
    });
  }

  beforeAll(() => {
    provider = build();
  });

  it('names itself', () => {
    expect(provider.name).toBe(name);
  });

  it('summarises the saved card without card data', async () => {
    run += 1;
    const { customerId } = await provider.createCustomer({ userId: 'u1', email: 'u1@example.test', idempotencyKey: key('customer') });
    expect(customerId).toMatch(/^cus_/);
    await expect(provider.setDefaultPaymentMethod({ customerId, paymentMethodId: 'pm_card_visa' })).resolves.toEqual({
      paymentMethodId: expect.stringMatching(/^pm_/),
      brand: 'visa',
      last4: '4242',
    });
  });

  it('creates a setup intent whose client secret names it', async () => {
    run += 1;
    const { customerId } = await provider.createCustomer({ userId: 'u1', email: 'u1@example.test', idempotencyKey: key('customer') });
    const setup = await provider.createSetupIntent({ customerId, idempotencyKey: key('setup') });
    expect(setup.setupIntentId).toMatch(/^seti_/);
    expect(setup.clientSecret.startsWith(`${setup.setupIntentId}_secret_`)).toBe(true);
  });

  it('holds a saved card at once', async () => {
    run += 1;
    const result = await hold(await customerWithCard(), 'pm_card_visa');
    expect(result).toMatchObject({ status: 'authorized', intentId: expect.stringMatching(/^pi_/) });
  });

  it('leaves the hold for the requester to confirm when there is no saved card', async () => {
    run += 1;
    const { customerId } = await provider.createCustomer({ userId: 'u1', email: 'u1@example.test', idempotencyKey: key('customer') });
    const result = await hold(customerId, null);
    expect(result.status).toBe('requires_confirmation');
    if (result.status !== 'requires_confirmation') return;
    expect(intentIdFromClientSecret(result.clientSecret)).toBe(result.intentId);
  });

  it('returns the same hold when the same key is retried', async () => {
    run += 1;
    const customerId = await customerWithCard();
    const first = await hold(customerId, 'pm_card_visa');
    const second = await hold(customerId, 'pm_card_visa');
    expect(second).toEqual(first);
  });

  it.each([['pm_card_declined'], ['pm_card_authenticationRequired']])('reports %s as declined', async (method) => {
    run += 1;
    const result = await hold(await customerWithCard(method), method);
    expect(result.status).toBe('declined');
    if (result.status === 'declined') expect(result.message).not.toBe('');
  });

  it('captures, and a second capture is still a success', async () => {
    run += 1;
    const result = await hold(await customerWithCard(), 'pm_card_visa');
    const captured = await provider.capture({ intentId: result.intentId!, idempotencyKey: key('capture') });
    // Stripe's charge has a receipt page; the simulated processor charges nothing real, so it has none.
    const receipt = name === 'stripe' ? expect.stringMatching(/^https:\/\/pay\.stripe\.com\/receipts\//) : null;
    expect(captured).toEqual({ receiptUrl: receipt });
    await expect(provider.capture({ intentId: result.intentId!, idempotencyKey: key('capture-again') })).resolves.toEqual({ receiptUrl: receipt });
  });

  it("gives a waiting hold's client secret again for its own key only", async () => {
    run += 1;
    const { customerId } = await provider.createCustomer({ userId: 'u1', email: 'u1@example.test', idempotencyKey: key('customer') });
    const result = await hold(customerId, null);
    if (result.status !== 'requires_confirmation') throw new Error(`expected a hold to confirm, got ${result.status}`);
    await expect(provider.holdClientSecret({ intentId: result.intentId, idempotencyKey: key('authorize') })).resolves.toBe(result.clientSecret);
    if (name === 'simulated') {
      await expect(provider.holdClientSecret({ intentId: result.intentId, idempotencyKey: key('other') })).rejects.toBeInstanceOf(ProviderError);
    }
  });

  it('removes a saved card, and removing it again is still a success', async () => {
    run += 1;
    const { customerId } = await provider.createCustomer({ userId: 'u1', email: 'u1@example.test', idempotencyKey: key('customer') });
    const { paymentMethodId } = await provider.setDefaultPaymentMethod({ customerId, paymentMethodId: 'pm_card_visa' });
    await provider.detachPaymentMethod(paymentMethodId);
    await expect(provider.detachPaymentMethod(paymentMethodId)).resolves.toBeUndefined();
  });

  it("says where a payout account's onboarding stands", async () => {
    run += 1;
    const { accountId } = await provider.createConnectedAccount({ userId: 'u1', email: 'u1@example.test', idempotencyKey: key('account') });
    if (name === 'simulated') {
      // Its onboarding link comes straight back: nothing is left to do.
      await expect(provider.payoutAccountState(accountId)).resolves.toBe('enabled');
      return;
    }
    const account = standin.accounts.get(accountId)!;
    await expect(provider.payoutAccountState(accountId)).resolves.toBe('details_needed');
    account.details_submitted = true;
    await expect(provider.payoutAccountState(accountId)).resolves.toBe('pending');
    account.capabilities = { transfers: 'active' };
    account.payouts_enabled = true;
    await expect(provider.payoutAccountState(accountId)).resolves.toBe('enabled');
  });

  it('releases, and a second release is still a success', async () => {
    run += 1;
    const result = await hold(await customerWithCard(), 'pm_card_visa');
    await provider.release({ intentId: result.intentId!, idempotencyKey: key('release') });
    await expect(provider.release({ intentId: result.intentId!, idempotencyKey: key('release-again') })).resolves.toBeUndefined();
  });

  it('charges at once for credits, and declines a failing card', async () => {
    run += 1;
    const customerId = await customerWithCard();
    const base = { amountCents: 2000, currency: 'usd', customerId, description: 'Credits', metadata: { credits: '10' } };
    const paid = await provider.charge({ ...base, paymentMethodId: 'pm_card_visa', idempotencyKey: key('charge') });
    expect(paid).toMatchObject({ status: 'succeeded', intentId: expect.stringMatching(/^pi_/) });
    const declined = await provider.charge({ ...base, paymentMethodId: 'pm_card_declined', idempotencyKey: key('charge-2') });
    expect(declined.status).toBe('declined');
  });

  it('refunds a charge, and a second refund is still a success', async () => {
    run += 1;
    const customerId = await customerWithCard();
    const paid = await provider.charge({ amountCents: 900, currency: 'usd', customerId, description: 'Credits', metadata: {}, paymentMethodId: 'pm_card_visa', idempotencyKey: key('charge') });
    if (paid.status !== 'succeeded') throw new Error(`the charge was ${paid.status}`);
    await provider.refund({ intentId: paid.intentId, idempotencyKey: key('refund') });
    await expect(provider.refund({ intentId: paid.intentId, idempotencyKey: key('refund-again') })).resolves.toBeUndefined();
    if (name === 'stripe') expect(standin.refunds.get(paid.intentId)).toMatchObject({ amount: 900, status: 'succeeded' });
  });

  it('onboards a connected account and transfers to it', async () => {
    run += 1;
    const { accountId } = await provider.createConnectedAccount({ userId: 'owner', email: 'o@example.test', idempotencyKey: key('account') });
    expect(accountId).toMatch(/^acct_/);
    const { url } = await provider.createOnboardingLink({
      accountId,
      refreshUrl: 'https://app.example.test/onboarding/refresh',
      returnUrl: 'https://app.example.test/onboarding/done',
    });
    expect(() => new URL(url)).not.toThrow();
    const { transferId } = await provider.transfer({
      amountCents: 1200,
      currency: 'usd',
      destinationAccountId: accountId,
      transferGroup: `task-${run}`,
      idempotencyKey: key('transfer'),
    });
    expect(transferId).toMatch(/^tr_/);
  });

  it('refuses a call without an idempotency key', async () => {
    await expect(provider.capture({ intentId: 'pi_x', idempotencyKey: '' })).rejects.toMatchObject({
      name: 'ProviderError',
      code: 'missing_idempotency_key',
      retryable: false,
    });
  });

  describe('webhooks', () => {
    const payload = JSON.stringify({
      id: 'evt_1',
      object: 'event',
      type: 'payment_intent.amount_capturable_updated',
      data: { object: { id: 'pi_123', object: 'payment_intent', status: 'requires_capture' } },
    });

    it('accepts an event signed the way Stripe signs it', () => {
      const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
      expect(provider.parseWebhook(Buffer.from(payload), header)).toEqual({
        id: 'evt_1',
        type: 'payment_intent.amount_capturable_updated',
        intentId: 'pi_123',
        status: 'requires_capture',
      });
    });

    it('refuses a tampered body, a wrong secret, a stale timestamp and a missing header', () => {
      const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
      const tampered = Buffer.from(payload.replace('requires_capture', 'succeeded'));
      expect(() => provider.parseWebhook(tampered, header)).toThrow(WebhookSignatureError);
      const wrong = Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_other' });
      expect(() => provider.parseWebhook(Buffer.from(payload), wrong)).toThrow(WebhookSignatureError);
      const stale = Stripe.webhooks.generateTestHeaderString({
        payload,
        secret: WEBHOOK_SECRET,
        timestamp: Math.floor(Date.now() / 1000) - 3600,
      });
      expect(() => provider.parseWebhook(Buffer.from(payload), stale)).toThrow(WebhookSignatureError);
      expect(() => provider.parseWebhook(Buffer.from(payload), undefined)).toThrow(WebhookSignatureError);
    });
  });

  it('throws ProviderError, not SDK errors', async () => {
    // An unknown intent for Stripe, a non-intent id for the simulator: both refuse it the same way.
    const error = await provider
      .capture({ intentId: name === 'stripe' ? 'pi_unknown' : 'ch_not_an_intent', idempotencyKey: key('bad-capture') })
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'resource_missing', retryable: false });
  });
});
