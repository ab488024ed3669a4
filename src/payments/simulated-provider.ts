// The default adapter: no network, no account, nothing to configure. It answers the
// way Stripe would for the cases the service meets, and remembers nothing: the
// service keeps its own payment records, so a restart loses nothing here.
//
// Ids are derived from the caller's idempotency key (HMAC under `idKey`, a secret of
// the server) rather than drawn at random. That gives Stripe's replay behaviour for
// free: a retried call with the same key returns the same intent and client secret,
// while different keys give unrelated ids that nobody without `idKey` can compute
// (idempotency keys are made of public task ids).
import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  ProviderError,
  WebhookPayloadError,
  WebhookSignatureError,
  requireIdempotencyKey,
  toProviderEvent,
  type AuthorizeResult,
  type PaymentProvider,
  type ProviderEvent,
} from './provider.js';

// Stripe's test payment method ids that fail, so the same fixtures drive both adapters.
const DECLINED_METHODS = new Set(['pm_card_declined', 'pm_card_chargeDeclined', 'pm_card_visa_chargeDeclined']);
const AUTHENTICATION_METHODS = new Set(['pm_card_authenticationRequired']);

// Every simulated hold is on the same card, the one setDefaultPaymentMethod reports.
const SIMULATED_CARD = { brand: 'visa', last4: '4242' } as const;

// Stripe's default tolerance for webhook timestamps, in seconds.
const WEBHOOK_TOLERANCE_SECONDS = 300;

export type SimulatedConfirmation =
  | { status: 'authorized'; intentId: string; eventId: string }
  | { status: 'declined'; intentId: string; message: string };

// The simulated adapter also plays the requester's side: what Stripe.js does with a client secret.
export interface SimulatedProvider extends PaymentProvider {
  readonly name: 'simulated';
  // Confirms the hold created under `idempotencyKey` when `clientSecret` is its secret. The event id is
  // the one Stripe's `payment_intent.amount_capturable_updated` would carry: the same for every repeat.
  confirmHold(input: { clientSecret: string; idempotencyKey: string; paymentMethodId: string }): SimulatedConfirmation;
}

export function isSimulatedProvider(provider: PaymentProvider): provider is SimulatedProvider {
  return provider.name === 'simulated' && 'confirmHold' in provider;
}

// webhookSecret verifies processor events; idKey derives ids and client secrets. Both are secrets.
export function createSimulatedProvider(opts: { webhookSecret: string; idKey: Buffer }): SimulatedProvider {
  const { webhookSecret, idKey } = opts;
  if (idKey.length < 32) throw new Error('the simulated processor needs an id key of at least 32 bytes');

  const idFor = (prefix: string, kind: string, key: string): string =>
    `${prefix}_sim_${digest(idKey, `${kind}:${requireIdempotencyKey(key)}`)}`;
  const secretFor = (id: string, key: string): string => `${id}_secret_${digest(idKey, `secret:${key}`)}`;

  return {
    name: 'simulated',

    async createCustomer({ idempotencyKey }) {
      return { customerId: idFor('cus', 'customer', idempotencyKey) };
    },

    async createSetupIntent({ idempotencyKey }) {
      const setupIntentId = idFor('seti', 'setup_intent', idempotencyKey);
      return { setupIntentId, clientSecret: secretFor(setupIntentId, idempotencyKey) };
    },

    async setDefaultPaymentMethod({ paymentMethodId }) {
      requirePaymentMethod(paymentMethodId);
      return { paymentMethodId, ...SIMULATED_CARD };
    },

    async authorize(input): Promise<AuthorizeResult> {
      requireAmount(input.amountCents);
      const intentId = idFor('pi', 'payment_intent', input.idempotencyKey);
      const clientSecret = secretFor(intentId, input.idempotencyKey);
      if (input.paymentMethodId === null) return { status: 'requires_confirmation', intentId, clientSecret };
      const declined = declineFor(input.paymentMethodId);
      if (declined !== null) return { status: 'declined', intentId, message: declined };
      return { status: 'authorized', intentId, clientSecret, card: SIMULATED_CARD };
    },

    async holdCard(intentId) {
      requireIntentId(intentId);
      return SIMULATED_CARD;
    },

    // The secret is derived, so it is given only for the intent this key made.
    async holdClientSecret({ intentId, idempotencyKey }) {
      if (intentId !== idFor('pi', 'payment_intent', idempotencyKey)) {
        throw new ProviderError('No such payment intent', { code: 'resource_missing', retryable: false });
      }
      return secretFor(intentId, idempotencyKey);
    },

    // Without state there is nothing to contradict, so capture and release succeed
    // for any intent id; the service's own records decide whether they are allowed.
    // Nothing real is charged, so there is no receipt.
    async capture({ intentId, idempotencyKey }) {
      requireIdempotencyKey(idempotencyKey);
      requireIntentId(intentId);
      return { receiptUrl: null };
    },

    async release({ intentId, idempotencyKey }) {
      requireIdempotencyKey(idempotencyKey);
      requireIntentId(intentId);
    },

    async refund({ intentId, idempotencyKey }) {
      requireIdempotencyKey(idempotencyKey);
      requireIntentId(intentId);
    },

    async charge(input) {
      requireAmount(input.amountCents);
      const intentId = idFor('pi', 'payment_intent', input.idempotencyKey);
      const declined = declineFor(input.paymentMethodId);
      if (declined !== null) return { status: 'declined', message: declined };
      return { status: 'succeeded', intentId };
    },

    async transfer({ amountCents, destinationAccountId, idempotencyKey }) {
      requireAmount(amountCents);
      if (!destinationAccountId.startsWith('acct_')) {
        throw new ProviderError('The destination is not a connected account id', {
          code: 'resource_missing',
          retryable: false,
        });
      }
      return { transferId: idFor('tr', 'transfer', idempotencyKey) };
    },

    async createConnectedAccount({ idempotencyKey }) {
      return { accountId: idFor('acct', 'account', idempotencyKey) };
    },

    // There is no hosted onboarding to visit, so the link goes straight back to the
    // service's return URL, marked so a developer can tell it was simulated.
    async createOnboardingLink({ accountId, returnUrl }) {
      let url: URL;
      try {
        url = new URL(returnUrl);
      } catch {
        throw new ProviderError('The return URL is not a valid URL', { code: 'url_invalid', retryable: false });
      }
      url.searchParams.set('simulated_onboarding', accountId);
      return { url: url.toString() };
    },

    // The simulated onboarding link comes straight back: an account is ready as soon as it exists.
    async payoutAccountState(accountId) {
      if (!accountId.startsWith('acct_')) throw new ProviderError('No such account', { code: 'resource_missing', retryable: false });
      return 'enabled';
    },

    async detachPaymentMethod(paymentMethodId) {
      requirePaymentMethod(paymentMethodId);
    },

    confirmHold({ clientSecret, idempotencyKey, paymentMethodId }) {
      const intentId = idFor('pi', 'payment_intent', idempotencyKey);
      const expected = Buffer.from(secretFor(intentId, idempotencyKey), 'utf8');
      const given = Buffer.from(clientSecret, 'utf8');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new ProviderError('No such payment intent', { code: 'resource_missing', retryable: false });
      }
      const declined = declineFor(paymentMethodId);
      if (declined !== null) return { status: 'declined', intentId, message: declined };
      return { status: 'authorized', intentId, eventId: `evt_sim_${digest(idKey, `capturable:${intentId}`)}` };
    },

    parseWebhook(rawBody: Buffer, signatureHeader: string | undefined): ProviderEvent {
      verifySignature(rawBody, signatureHeader, webhookSecret);
      let value: unknown;
      try {
        value = JSON.parse(rawBody.toString('utf8'));
      } catch {
        throw new WebhookPayloadError('Webhook payload is not JSON', 'body');
      }
      return toProviderEvent(value);
    },
  };
}

// Same header as Stripe (`t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`), so
// `stripe.webhooks.generateTestHeaderString` works against this adapter too.
export function signSimulatedEvent(
  payload: string | Buffer,
  secret: string,
  timestampSeconds: number = Math.floor(Date.now() / 1000),
): string {
  return `t=${timestampSeconds},v1=${signature(timestampSeconds, payload, secret)}`;
}

// Works for `pi_sim_…_secret_…` and Stripe's `pi_…_secret_…` alike.
export function intentIdFromClientSecret(clientSecret: string): string | null {
  const at = clientSecret.lastIndexOf('_secret_');
  if (at <= 0 || at + '_secret_'.length >= clientSecret.length) return null;
  const intentId = clientSecret.slice(0, at);
  return /^pi_[A-Za-z0-9_]+$/.test(intentId) ? intentId : null;
}

function verifySignature(rawBody: Buffer, header: string | undefined, secret: string): void {
  if (header === undefined || header === '') throw new WebhookSignatureError('Missing signature header');
  let timestamp: number | null = null;
  const candidates: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (name === 't' && /^\d+$/.test(value)) timestamp = Number(value);
    if (name === 'v1') candidates.push(value);
  }
  if (timestamp === null || candidates.length === 0) {
    throw new WebhookSignatureError('Malformed signature header');
  }
  const expected = Buffer.from(signature(timestamp, rawBody, secret), 'utf8');
  const matches = candidates.some((candidate) => {
    const given = Buffer.from(candidate, 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookSignatureError('Webhook signature does not verify');
  // As Stripe: only stale timestamps are refused, to stop replays of old deliveries.
  if (Math.floor(Date.now() / 1000) - timestamp > WEBHOOK_TOLERANCE_SECONDS) {
    throw new WebhookSignatureError('Webhook timestamp is outside the tolerance');
  }
}

// Signs the raw bytes, never a re-serialised body.
function signature(timestampSeconds: number, payload: string | Buffer, secret: string): string {
  return createHmac('sha256', secret)
    .update(`${timestampSeconds}.`)
    .update(typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload)
    .digest('hex');
}

function digest(secret: Buffer, value: string): string {
  return createHmac('sha256', secret).update(value).digest('hex').slice(0, 24);
}

function declineFor(paymentMethodId: string): string | null {
  requirePaymentMethod(paymentMethodId);
  if (DECLINED_METHODS.has(paymentMethodId)) return 'Your card was declined.';
  if (AUTHENTICATION_METHODS.has(paymentMethodId)) {
    return 'The card needs the cardholder to authenticate, so it cannot be charged automatically';
  }
  return null;
}

function requirePaymentMethod(paymentMethodId: string): void {
  if (!paymentMethodId.startsWith('pm_')) {
    throw new ProviderError('No such payment method', { code: 'resource_missing', retryable: false });
  }
}

function requireIntentId(intentId: string): void {
  if (!intentId.startsWith('pi_')) {
    throw new ProviderError('No such payment intent', { code: 'resource_missing', retryable: false });
  }
}

function requireAmount(amountCents: number): void {
  if (!Number.isInteger(amountCents) || amountCents <= 0) {
    throw new ProviderError('The amount must be a positive whole number of cents', {
      code: 'invalid_amount',
      retryable: false,
    });
  }
}
