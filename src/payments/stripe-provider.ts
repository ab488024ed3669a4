// The Stripe adapter: PaymentIntents with manual capture for task holds, separate
// charges and transfers (transfer_group = task id) for paying agent owners, Express
// connected accounts for onboarding. host/port/protocol exist so tests can point the
// official SDK at a local stand-in; production leaves them unset.
import type Stripe from 'stripe';
import { packageLoader } from '../load-package.js';
import {
  ProviderError,
  WebhookPayloadError,
  WebhookSignatureError,
  requireIdempotencyKey,
  toProviderEvent,
  type AuthorizeResult,
  type CardSummary,
  type ChargeResult,
  type PaymentProvider,
  type PayoutAccountState,
  type ProviderEvent,
} from './provider.js';

export type StripeProviderOptions = {
  secretKey: string;
  webhookSecret: string;
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
  maxNetworkRetries?: number;
};

// Every call carries an idempotency key, so the SDK's own retries are safe; two
// retries ride out a dropped connection without making a job wait long.
const DEFAULT_NETWORK_RETRIES = 2;

// No redirect-based methods: holds are confirmed off-session or by the requester
// with a card in the client library, and there is no return_url to come back to.
// Without this Stripe demands a return_url when confirming server-side.
const NO_REDIRECT_METHODS = { enabled: true, allow_redirects: 'never' } as const;

const loadStripe = packageLoader<typeof Stripe>('stripe');

export function createStripeProvider(opts: StripeProviderOptions): PaymentProvider {
  const StripeClient = loadStripe();
  const stripe = new StripeClient(opts.secretKey, {
    host: opts.host,
    port: opts.port,
    protocol: opts.protocol,
    maxNetworkRetries: opts.maxNetworkRetries ?? DEFAULT_NETWORK_RETRIES,
  });

  async function call<T>(operation: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      throw toProviderError(operation, err);
    }
  }

  async function retrieveIntent(intentId: string): Promise<Stripe.PaymentIntent> {
    return call('retrieve payment', () => stripe.paymentIntents.retrieve(intentId));
  }

  return {
    name: 'stripe',

    async createCustomer({ userId, email, idempotencyKey }) {
      const customer = await call('create customer', () =>
        stripe.customers.create(
          { email, metadata: { userId } },
          { idempotencyKey: requireIdempotencyKey(idempotencyKey) },
        ),
      );
      return { customerId: customer.id };
    },

    async createSetupIntent({ customerId, idempotencyKey }) {
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
    },

    async setDefaultPaymentMethod({ customerId, paymentMethodId }) {
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
    },

    async authorize(input): Promise<AuthorizeResult> {
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
    },

    async holdCard(intentId) {
      const intent = await call('retrieve payment', () => stripe.paymentIntents.retrieve(intentId, { expand: ['payment_method'] }));
      return cardOf(intent);
    },

    async holdClientSecret({ intentId }) {
      return clientSecretOf(await retrieveIntent(intentId));
    },

    async capture({ intentId, idempotencyKey }) {
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
    },

    async release({ intentId, idempotencyKey }) {
      const key = requireIdempotencyKey(idempotencyKey);
      try {
        await stripe.paymentIntents.cancel(intentId, {}, { idempotencyKey: key });
      } catch (err) {
        if (!isUnexpectedState(err)) throw toProviderError('release payment', err);
        const intent = await retrieveIntent(intentId);
        if (intent.status === 'canceled') return;
        throw new ProviderError(`The payment cannot be released because it is ${intent.status}`, {
          code: intent.status === 'succeeded' ? 'payment_already_captured' : 'payment_not_releasable',
          retryable: false,
        });
      }
    },

    async refund({ intentId, idempotencyKey }) {
      const key = requireIdempotencyKey(idempotencyKey);
      try {
        await stripe.refunds.create({ payment_intent: intentId }, { idempotencyKey: key });
      } catch (err) {
        // Under a new key (or after a lost response) the charge may already be refunded: that is done.
        if (stripeType(err) !== null && (err as StripeErrorLike).code === 'charge_already_refunded') return;
        throw toProviderError('refund payment', err);
      }
    },

    async charge(input): Promise<ChargeResult> {
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
    },

    async transfer({ amountCents, currency, destinationAccountId, transferGroup, idempotencyKey }) {
      const transfer = await call('transfer funds', () =>
        stripe.transfers.create(
          { amount: amountCents, currency, destination: destinationAccountId, transfer_group: transferGroup },
          { idempotencyKey: requireIdempotencyKey(idempotencyKey) },
        ),
      );
      return { transferId: transfer.id };
    },

    async createConnectedAccount({ userId, email, idempotencyKey }) {
      const account = await call('create connected account', () =>
        stripe.accounts.create(
          // Separate charges and transfers need only the transfers capability.
          { type: 'express', email, metadata: { userId }, capabilities: { transfers: { requested: true } } },
          { idempotencyKey: requireIdempotencyKey(idempotencyKey) },
        ),
      );
      return { accountId: account.id };
    },

    async createOnboardingLink({ accountId, refreshUrl, returnUrl }) {
      const link = await call('create onboarding link', () =>
        stripe.accountLinks.create({
          account: accountId,
          type: 'account_onboarding',
          refresh_url: refreshUrl,
          return_url: returnUrl,
        }),
      );
      return { url: link.url };
    },

    async payoutAccountState(accountId): Promise<PayoutAccountState> {
      const account = await call('retrieve connected account', () => stripe.accounts.retrieve(accountId));
      if (!account.details_submitted) return 'details_needed';
      // Transfers are what this service sends; payouts are the owner's bank receiving them.
      const transfers = account.capabilities?.transfers;
      return transfers === 'active' && account.payouts_enabled ? 'enabled' : 'pending';
    },

    async detachPaymentMethod(paymentMethodId) {
      try {
        await stripe.paymentMethods.detach(paymentMethodId);
      } catch (err) {
        // Already detached (or never attached): nothing is left to remove.
        if (stripeType(err) !== null && (err as StripeErrorLike).code === 'payment_method_unexpected_state') return;
        throw toProviderError('remove payment method', err);
      }
    },

    parseWebhook(rawBody: Buffer, signatureHeader: string | undefined): ProviderEvent {
      if (signatureHeader === undefined || signatureHeader === '') {
        throw new WebhookSignatureError('Missing Stripe-Signature header');
      }
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signatureHeader, opts.webhookSecret);
      } catch (err) {
        if (stripeType(err) === 'StripeSignatureVerificationError') {
          throw new WebhookSignatureError('Webhook signature does not verify');
        }
        // Verified but not JSON: still nothing we can act on, answered the same way.
        throw new WebhookPayloadError('Webhook payload is not JSON', 'body');
      }
      return toProviderEvent(event);
    },
  };
}

// ---- error mapping ------------------------------------------------------------

type StripeErrorLike = {
  type?: unknown;
  code?: unknown;
  message?: unknown;
  statusCode?: unknown;
  requestId?: unknown;
  payment_intent?: { id?: unknown } | null;
};

// The SDK's own `type` field names the error class; it survives duplicated module
// copies where `instanceof` would not.
function stripeType(err: unknown): string | null {
  if (typeof err !== 'object' || err === null) return null;
  const type = (err as StripeErrorLike).type;
  return typeof type === 'string' && type.startsWith('Stripe') ? type : null;
}

function isUnexpectedState(err: unknown): boolean {
  return stripeType(err) !== null && (err as StripeErrorLike).code === 'payment_intent_unexpected_state';
}

function asDecline(err: unknown): { intentId: string | null; message: string } | null {
  if (stripeType(err) !== 'StripeCardError') return null;
  const e = err as StripeErrorLike;
  const intentId = typeof e.payment_intent?.id === 'string' ? e.payment_intent.id : null;
  if (e.code === 'authentication_required') {
    return { intentId, message: 'The card needs the cardholder to authenticate, so it cannot be charged automatically' };
  }
  const message = typeof e.message === 'string' && e.message !== '' ? scrub(e.message) : 'The card was declined';
  return { intentId, message };
}

function declineMessageOf(intent: Stripe.PaymentIntent): string {
  const message = intent.last_payment_error?.message;
  return message ? scrub(message) : 'The card was declined';
}

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

function clientSecretOf(intent: Stripe.PaymentIntent): string {
  if (intent.client_secret === null) {
    throw new ProviderError('Stripe returned a payment without a client secret', {
      code: 'unexpected_response',
      retryable: false,
    });
  }
  return intent.client_secret;
}

function unexpectedStatus(operation: string, status: string): ProviderError {
  return new ProviderError(`Stripe left the payment in an unexpected state (${status}) during ${operation}`, {
    code: 'unexpected_status',
    retryable: false,
  });
}

function notCapturable(status: string): ProviderError {
  if (status === 'canceled') {
    return new ProviderError('The payment hold was cancelled, so it cannot be captured', {
      code: 'payment_canceled',
      retryable: false,
    });
  }
  return new ProviderError(`The payment cannot be captured because it is ${status}`, {
    code: 'payment_not_capturable',
    // A hold still being set up may become capturable; anything else will not.
    retryable: status === 'processing' || status === 'requires_capture',
  });
}

// Stripe's messages are written for developers and never contain full card
// numbers, but API key fragments appear in authentication errors; both are
// removed anyway because these messages end up in logs and API responses.
function scrub(message: string): string {
  return message
    .replace(/\b(sk|rk|pk)_(live|test)_[A-Za-z0-9*]+/g, '[redacted key]')
    .replace(/\bwhsec_[A-Za-z0-9]+/g, '[redacted secret]')
    .replace(/\b(?:\d[ -]?){12,19}\b/g, '[redacted number]');
}

function toProviderError(operation: string, err: unknown): ProviderError {
  if (err instanceof ProviderError) return err;
  const type = stripeType(err);
  if (type === null) {
    return new ProviderError(`Unexpected failure during ${operation}`, {
      code: 'internal',
      retryable: false,
      cause: err,
    });
  }
  const e = err as StripeErrorLike;
  const statusCode = typeof e.statusCode === 'number' ? e.statusCode : null;
  const requestId = typeof e.requestId === 'string' ? e.requestId : null;
  const stripeCode = typeof e.code === 'string' ? e.code : null;
  const detail = typeof e.message === 'string' && e.message !== '' ? `: ${scrub(e.message)}` : '';
  const message = `Stripe ${operation} failed${detail}`;
  const build = (code: string, retryable: boolean) =>
    new ProviderError(message, { code, retryable, statusCode, requestId });

  switch (type) {
    case 'StripeConnectionError':
      return build('network_error', true);
    case 'StripeRateLimitError':
      return build('rate_limited', true);
    case 'StripeCardError':
      return build(stripeCode ?? 'card_declined', false);
    case 'StripeAuthenticationError':
    case 'StripePermissionError':
      return build('provider_auth', false);
    case 'StripeIdempotencyError':
      return build('idempotency_conflict', false);
  }
  // 409 is a concurrent request with the same idempotency key; lock_timeout is
  // Stripe asking for a retry. Both resolve themselves, as do 5xx answers.
  if (statusCode !== null && (statusCode >= 500 || statusCode === 409)) return build('provider_unavailable', true);
  if (stripeCode === 'lock_timeout') return build('lock_timeout', true);
  return build(stripeCode ?? 'invalid_request', false);
}
