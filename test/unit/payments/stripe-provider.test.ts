// The Stripe adapter through the real SDK against the local stand-in: what is sent,
// what Stripe's state becomes, and how Stripe's errors reach the service.
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ProviderError,
  WebhookSignatureError,
  createStripeProvider,
  type PaymentProvider,
} from '../../../src/payments/index.js';
import { startStripeStandin, type StripeStandin } from '../../support/stripe-standin.js';

const WEBHOOK_SECRET = 'whsec_stripe_provider_test';

let standin: StripeStandin;
let provider: PaymentProvider;
let taskId: string;

function providerWith(maxNetworkRetries: number, port = standin.port): PaymentProvider {
  return createStripeProvider({
    secretKey: 'sk_test_standin',
    webhookSecret: WEBHOOK_SECRET,
    host: '127.0.0.1',
    port,
    protocol: 'http',
    maxNetworkRetries,
  });
}

beforeAll(async () => {
  standin = await startStripeStandin();
  provider = providerWith(0);
});

afterAll(async () => {
  await standin.close();
});

beforeEach(() => {
  // Keys are built from the task id and the step, as the service builds them.
  taskId = `task_${randomUUID()}`;
});

const key = (step: string) => `${taskId}:${step}`;

async function customer(paymentMethodId: string | null = 'pm_card_visa', step = 'customer'): Promise<string> {
  const { customerId } = await provider.createCustomer({ userId: 'user_1', email: 'u@example.test', idempotencyKey: key(step) });
  if (paymentMethodId !== null) await provider.setDefaultPaymentMethod({ customerId, paymentMethodId });
  return customerId;
}

function authorize(customerId: string, paymentMethodId: string | null, p: PaymentProvider = provider) {
  return p.authorize({
    amountCents: 2500,
    currency: 'usd',
    customerId,
    paymentMethodId,
    taskId,
    description: `Task ${taskId}`,
    idempotencyKey: key('authorize'),
  });
}

async function heldIntent(): Promise<string> {
  const result = await authorize(await customer(), 'pm_card_visa');
  if (result.status !== 'authorized') throw new Error(`expected a hold, got ${result.status}`);
  return result.intentId;
}

const callsFor = (path: string) => standin.calls.filter((call) => call.path === path);

describe('saving a card', () => {
  it('attaches the method and makes it the default', async () => {
    const customerId = await customer(null);
    expect(standin.customers.get(customerId)).toMatchObject({ email: 'u@example.test', metadata: { userId: 'user_1' } });
    expect(callsFor('/v1/customers').at(-1)?.idempotencyKey).toBe(key('customer'));

    const saved = await provider.setDefaultPaymentMethod({ customerId, paymentMethodId: 'pm_card_mastercard' });
    expect(saved).toMatchObject({ brand: 'mastercard', last4: '4444' });
    const defaultId = (standin.customers.get(customerId)?.invoice_settings as { default_payment_method: string }).default_payment_method;
    // The shortcut was attached as a new method; the service must charge that one.
    expect(saved.paymentMethodId).toBe(defaultId);
    expect(defaultId).not.toBe('pm_card_mastercard');
    expect(standin.paymentMethods.get(defaultId)?.customer).toBe(customerId);
  });

  it('does not attach a method the customer already has', async () => {
    const customerId = await customer(null);
    await provider.setDefaultPaymentMethod({ customerId, paymentMethodId: 'pm_1AlreadyOurs' });
    const attaches = callsFor('/v1/payment_methods/pm_1AlreadyOurs/attach').length;
    await provider.setDefaultPaymentMethod({ customerId, paymentMethodId: 'pm_1AlreadyOurs' });
    expect(callsFor('/v1/payment_methods/pm_1AlreadyOurs/attach')).toHaveLength(attaches);
  });

  it("refuses another customer's method", async () => {
    const first = await customer(null);
    await provider.setDefaultPaymentMethod({ customerId: first, paymentMethodId: 'pm_1Shared' });
    // A different key: the same one would replay the first customer.
    const second = await customer(null, 'second-customer');
    expect(second).not.toBe(first);
    await expect(provider.setDefaultPaymentMethod({ customerId: second, paymentMethodId: 'pm_1Shared' })).rejects.toMatchObject({
      code: 'payment_method_not_owned',
      retryable: false,
    });
  });

  it('creates an off-session setup intent', async () => {
    const customerId = await customer(null);
    const setup = await provider.createSetupIntent({ customerId, idempotencyKey: key('setup') });
    const call = callsFor('/v1/setup_intents').at(-1);
    expect(call).toMatchObject({ idempotencyKey: key('setup'), body: { customer: customerId, usage: 'off_session' } });
    expect(setup.clientSecret.startsWith(`${setup.setupIntentId}_secret_`)).toBe(true);
  });
});

describe('holding a card for a task', () => {
  it('with a saved method: confirmed off-session, manual capture, grouped by task', async () => {
    const customerId = await customer();
    const result = await authorize(customerId, 'pm_card_visa');

    expect(result.status).toBe('authorized');
    const intent = standin.intents.get(result.intentId!);
    expect(intent).toMatchObject({
      status: 'requires_capture',
      amount: 2500,
      amount_capturable: 2500,
      capture_method: 'manual',
      customer: customerId,
      transfer_group: taskId,
      metadata: { taskId },
    });
    expect(callsFor('/v1/payment_intents').at(-1)).toMatchObject({
      idempotencyKey: key('authorize'),
      body: { confirm: 'true', off_session: 'true', payment_method: 'pm_card_visa', 'metadata[taskId]': taskId },
    });
  });

  it('without a saved method: left for the requester, who confirms with the client secret', async () => {
    const customerId = await customer(null);
    const result = await authorize(customerId, null);

    expect(result.status).toBe('requires_confirmation');
    if (result.status !== 'requires_confirmation') return;
    const intent = standin.intents.get(result.intentId)!;
    expect(intent.status).toBe('requires_payment_method');
    expect(result.clientSecret).toBe(intent.client_secret);
    expect(callsFor('/v1/payment_intents').at(-1)?.body).not.toHaveProperty('confirm');

    // What Stripe.js does in the requester's browser.
    const browser = new Stripe('pk_test_standin', { host: '127.0.0.1', port: standin.port, protocol: 'http' });
    await browser.paymentIntents.confirm(result.intentId, { payment_method: 'pm_card_visa' });
    expect(standin.intents.get(result.intentId)?.status).toBe('requires_capture');
    await provider.capture({ intentId: result.intentId, idempotencyKey: key('capture') });
    expect(standin.intents.get(result.intentId)?.status).toBe('succeeded');
  });

  it('a retry with the same key creates one intent and returns it again', async () => {
    const customerId = await customer();
    const before = standin.intents.size;
    const first = await authorize(customerId, 'pm_card_visa');
    const second = await authorize(customerId, 'pm_card_visa');

    expect(second).toEqual(first);
    expect(standin.intents.size).toBe(before + 1);
    const posts = callsFor('/v1/payment_intents').filter((call) => call.idempotencyKey === key('authorize'));
    expect(posts.map((call) => call.replayed)).toEqual([false, true]);
  });

  it('a response lost on the way back is retried by the SDK under the same key, still one intent', async () => {
    const customerId = await customer();
    const before = standin.intents.size;
    standin.failNext('drop_after');
    const result = await authorize(customerId, 'pm_card_visa', providerWith(1));

    expect(result.status).toBe('authorized');
    expect(standin.intents.size).toBe(before + 1);
    const posts = callsFor('/v1/payment_intents').filter((call) => call.idempotencyKey === key('authorize'));
    expect(posts.map((call) => call.replayed)).toEqual([false, true]);
  });

  it('reusing a key for a different request is a non-retryable error', async () => {
    const customerId = await customer();
    await authorize(customerId, 'pm_card_visa');
    const error = await provider
      .authorize({ amountCents: 9900, currency: 'usd', customerId, paymentMethodId: 'pm_card_visa', taskId, description: 'x', idempotencyKey: key('authorize') })
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'idempotency_conflict', retryable: false });
  });

  it('maps a declined card to a declined result carrying the intent', async () => {
    const customerId = await customer('pm_card_declined');
    const result = await authorize(customerId, 'pm_card_declined');
    expect(result).toEqual({ status: 'declined', intentId: expect.stringMatching(/^pi_/), message: 'Your card was declined.' });
    expect(standin.intents.get(result.intentId!)?.status).toBe('requires_payment_method');
  });

  it('maps authentication_required to a declined result', async () => {
    const customerId = await customer('pm_card_authenticationRequired');
    const result = await authorize(customerId, 'pm_card_authenticationRequired');
    expect(result.status).toBe('declined');
    if (result.status === 'declined') expect(result.message).toMatch(/authenticate/);
  });

  it('declines a method marked as declining', async () => {
    standin.setDecline('pm_1Insufficient', 'insufficient_funds');
    const customerId = await customer('pm_1Insufficient');
    const result = await authorize(customerId, 'pm_1Insufficient');
    expect(result).toMatchObject({ status: 'declined', message: 'Your card has insufficient funds.' });
  });
});

describe('capturing and releasing', () => {
  it('captures the hold', async () => {
    const intentId = await heldIntent();
    await provider.capture({ intentId, idempotencyKey: key('capture') });
    expect(standin.intents.get(intentId)).toMatchObject({ status: 'succeeded', amount_received: 2500, amount_capturable: 0 });
    expect(callsFor(`/v1/payment_intents/${intentId}/capture`).at(-1)?.idempotencyKey).toBe(key('capture'));
  });

  it('treats a capture of a captured intent as success, same key or not', async () => {
    const intentId = await heldIntent();
    await provider.capture({ intentId, idempotencyKey: key('capture') });
    await provider.capture({ intentId, idempotencyKey: key('capture') });
    await provider.capture({ intentId, idempotencyKey: key('capture-retry') });
    // The new key met Stripe's unexpected-state error and the adapter looked the intent up.
    expect(callsFor(`/v1/payment_intents/${intentId}`).filter((call) => call.method === 'GET')).toHaveLength(1);
    expect(standin.intents.get(intentId)?.status).toBe('succeeded');
  });

  it('releases the hold, and a second release is success', async () => {
    const intentId = await heldIntent();
    await provider.release({ intentId, idempotencyKey: key('release') });
    await provider.release({ intentId, idempotencyKey: key('release-retry') });
    expect(standin.intents.get(intentId)).toMatchObject({ status: 'canceled', amount_capturable: 0 });
  });

  it('refuses to capture a released hold, clearly and for good', async () => {
    const intentId = await heldIntent();
    await provider.release({ intentId, idempotencyKey: key('release') });
    const error = await provider.capture({ intentId, idempotencyKey: key('capture') }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'payment_canceled', retryable: false, message: 'The payment hold was cancelled, so it cannot be captured' });
  });

  it('refuses to release a captured payment', async () => {
    const intentId = await heldIntent();
    await provider.capture({ intentId, idempotencyKey: key('capture') });
    await expect(provider.release({ intentId, idempotencyKey: key('release') })).rejects.toMatchObject({
      code: 'payment_already_captured',
      retryable: false,
    });
  });

  it('refuses to capture a hold the requester never confirmed', async () => {
    const result = await authorize(await customer(null), null);
    await expect(provider.capture({ intentId: result.intentId!, idempotencyKey: key('capture') })).rejects.toMatchObject({
      code: 'payment_not_capturable',
      retryable: false,
    });
  });
});

describe('credits and payouts', () => {
  it('charges at once with automatic capture and the given metadata', async () => {
    const customerId = await customer();
    const result = await provider.charge({
      amountCents: 5000,
      currency: 'usd',
      customerId,
      paymentMethodId: 'pm_card_visa',
      description: 'Credit pack',
      idempotencyKey: key('credits'),
      metadata: { userId: 'user_1', credits: '50' },
    });
    expect(result.status).toBe('succeeded');
    if (result.status !== 'succeeded') return;
    expect(standin.intents.get(result.intentId)).toMatchObject({
      status: 'succeeded',
      capture_method: 'automatic',
      amount_received: 5000,
      metadata: { userId: 'user_1', credits: '50' },
    });
  });

  it("transfers the owner's share with transfer_group and destination", async () => {
    const { accountId } = await provider.createConnectedAccount({ userId: 'owner_1', email: 'o@example.test', idempotencyKey: key('account') });
    expect(standin.accounts.get(accountId)).toMatchObject({ type: 'express', email: 'o@example.test', metadata: { userId: 'owner_1' } });

    const { transferId } = await provider.transfer({
      amountCents: 2000,
      currency: 'usd',
      destinationAccountId: accountId,
      transferGroup: taskId,
      idempotencyKey: key('transfer'),
    });
    expect(standin.transfers.get(transferId)).toMatchObject({ amount: 2000, destination: accountId, transfer_group: taskId });
    expect(callsFor('/v1/transfers').at(-1)?.idempotencyKey).toBe(key('transfer'));
  });

  it('creates an onboarding link for the account', async () => {
    const { accountId } = await provider.createConnectedAccount({ userId: 'owner_2', email: 'o2@example.test', idempotencyKey: key('account') });
    const { url } = await provider.createOnboardingLink({ accountId, refreshUrl: 'https://app.test/refresh', returnUrl: 'https://app.test/done' });
    expect(url).toMatch(/^https:\/\/connect\.stripe\.com\//);
    expect(callsFor('/v1/account_links').at(-1)?.body).toMatchObject({ account: accountId, type: 'account_onboarding' });
  });
});

describe('errors that are worth retrying', () => {
  it('marks a server error as retryable', async () => {
    const intentId = await heldIntent();
    standin.failNext('server_error');
    await expect(provider.capture({ intentId, idempotencyKey: key('capture') })).rejects.toMatchObject({
      name: 'ProviderError',
      code: 'provider_unavailable',
      retryable: true,
      statusCode: 500,
    });
    // The retry the job would make, with the same key, goes through.
    await provider.capture({ intentId, idempotencyKey: key('capture') });
    expect(standin.intents.get(intentId)?.status).toBe('succeeded');
  });

  it('marks rate limiting as retryable', async () => {
    const customerId = await customer();
    standin.failNext('rate_limit');
    await expect(authorize(customerId, 'pm_card_visa')).rejects.toMatchObject({ code: 'rate_limited', retryable: true });
  });

  it('marks an unreachable API as retryable', async () => {
    const closed = await startStripeStandin();
    const port = closed.port;
    await closed.close();
    await expect(providerWith(0, port).capture({ intentId: 'pi_x', idempotencyKey: key('capture') })).rejects.toMatchObject({
      code: 'network_error',
      retryable: true,
    });
  });

  it('does not retry a request Stripe refused', async () => {
    await expect(provider.release({ intentId: 'pi_missing', idempotencyKey: key('release') })).rejects.toMatchObject({
      code: 'resource_missing',
      retryable: false,
      statusCode: 404,
    });
  });
});

describe('webhooks', () => {
  const event = (type: string, object: Record<string, unknown>) =>
    JSON.stringify({ id: 'evt_1', object: 'event', type, api_version: '2026-10-28.endive', data: { object } });

  it('verifies an event signed with generateTestHeaderString and maps the intent', () => {
    const payload = event('payment_intent.succeeded', { id: 'pi_1', object: 'payment_intent', status: 'succeeded' });
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    expect(provider.parseWebhook(Buffer.from(payload), header)).toEqual({
      id: 'evt_1',
      type: 'payment_intent.succeeded',
      intentId: 'pi_1',
      status: 'succeeded',
    });
  });

  it('maps a charge event to its intent without borrowing the charge status', () => {
    const payload = event('charge.refunded', { id: 'ch_1', object: 'charge', status: 'succeeded', payment_intent: 'pi_2' });
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    expect(provider.parseWebhook(Buffer.from(payload), header)).toMatchObject({ intentId: 'pi_2', status: null });
  });

  it('refuses a tampered body', () => {
    const payload = event('payment_intent.canceled', { id: 'pi_1', object: 'payment_intent', status: 'canceled' });
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    expect(() => provider.parseWebhook(Buffer.from(payload.replace('pi_1', 'pi_9')), header)).toThrow(WebhookSignatureError);
    // Whitespace changes count too: the signature covers the raw bytes.
    const reserialised = JSON.stringify(JSON.parse(payload), null, 2);
    expect(() => provider.parseWebhook(Buffer.from(reserialised), header)).toThrow(WebhookSignatureError);
  });
});
