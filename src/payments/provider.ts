// The payment port. Services talk to this interface only; `simulated` and `stripe`
// are its two adapters. Every money-moving call takes an idempotency key derived by
// the caller from the task id and the step, so a retried job never charges twice.
import { z } from 'zod';
import { plainWords } from '../services/validation.js';

// What the service may keep and show of a card: its brand and last four digits, never more.
export type CardSummary = { brand: string; last4: string };

export type AuthorizeResult =
  | { status: 'authorized'; intentId: string; clientSecret: string | null; card: CardSummary | null }
  | { status: 'requires_confirmation'; intentId: string; clientSecret: string }
  | { status: 'declined'; intentId: string | null; message: string };

// Where a payout account stands at the processor: details still to give, given and being checked, or able
// to receive transfers.
export type PayoutAccountState = 'details_needed' | 'pending' | 'enabled';

export type ChargeResult = { status: 'succeeded'; intentId: string } | { status: 'declined'; message: string };

export interface PaymentProvider {
  readonly name: 'simulated' | 'stripe';
  createCustomer(input: { userId: string; email: string; idempotencyKey: string }): Promise<{ customerId: string }>;
  createSetupIntent(input: { customerId: string; idempotencyKey: string }): Promise<{ clientSecret: string; setupIntentId: string }>;
  // Attaches (if needed) and makes the method the customer's default; returns the id to charge later (Stripe's
  // test shortcuts such as pm_card_visa come back as a new method when attached) and a display summary, never
  // full card data.
  setDefaultPaymentMethod(input: {
    customerId: string;
    paymentMethodId: string;
  }): Promise<{ paymentMethodId: string; brand: string | null; last4: string | null }>;
  // Manual-capture hold. With paymentMethodId: confirmed off-session now. Without: left unconfirmed, the requester confirms with clientSecret.
  authorize(input: {
    amountCents: number;
    currency: string;
    customerId: string;
    paymentMethodId: string | null;
    taskId: string;
    description: string;
    idempotencyKey: string;
  }): Promise<AuthorizeResult>;
  // The card a hold was placed on (its PaymentIntent's payment method), or null when it has none yet.
  holdCard(intentId: string): Promise<CardSummary | null>;
  // The client secret of a hold placed under `idempotencyKey`, for the requester's client library to
  // confirm it (again, after a decline or an abandoned attempt). The service never stores it.
  holdClientSecret(input: { intentId: string; idempotencyKey: string }): Promise<string>;
  // Capturing an already captured hold succeeds; capturing a cancelled one throws a non-retryable ProviderError.
  // Answers the processor's receipt page of the charge, where it has one.
  capture(input: { intentId: string; idempotencyKey: string }): Promise<{ receiptUrl: string | null }>;
  // Cancels the PaymentIntent. Cancelling an already cancelled one succeeds.
  release(input: { intentId: string; idempotencyKey: string }): Promise<void>;
  // Gives back the whole amount of a succeeded charge (a credit purchase that could not be credited).
  // Refunding one already refunded succeeds.
  refund(input: { intentId: string; idempotencyKey: string }): Promise<void>;
  // Immediate charge (credit purchases): confirmed off-session, automatic capture.
  charge(input: {
    amountCents: number;
    currency: string;
    customerId: string;
    paymentMethodId: string;
    description: string;
    idempotencyKey: string;
    metadata: Record<string, string>;
  }): Promise<ChargeResult>;
  transfer(input: {
    amountCents: number;
    currency: string;
    destinationAccountId: string;
    transferGroup: string;
    idempotencyKey: string;
  }): Promise<{ transferId: string }>;
  createConnectedAccount(input: { userId: string; email: string; idempotencyKey: string }): Promise<{ accountId: string }>;
  createOnboardingLink(input: { accountId: string; refreshUrl: string; returnUrl: string }): Promise<{ url: string }>;
  payoutAccountState(accountId: string): Promise<PayoutAccountState>;
  // Removes a saved card from the customer. Removing one already removed succeeds.
  detachPaymentMethod(paymentMethodId: string): Promise<void>;
  // Verifies the signature over the RAW body and returns the event; throws WebhookSignatureError when it does not verify.
  parseWebhook(rawBody: Buffer, signatureHeader: string | undefined): ProviderEvent;
}

// intentId/status are filled for payment_intent objects; for charges and disputes
// intentId is the PaymentIntent they belong to and status is null (it would be the
// charge's status, not the intent's, and mixing the two invites mistakes).
export type ProviderEvent = { id: string; type: string; intentId: string | null; status: string | null };

export class WebhookSignatureError extends Error {
  override readonly name: string = 'WebhookSignatureError';
}

// A verified event whose content can never be handled (a field of the wrong shape or size). `field` is
// its path in the event, e.g. `data.object.id`.
export class WebhookPayloadError extends WebhookSignatureError {
  override readonly name = 'WebhookPayloadError';
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
  }
}

// What callers branch on: `retryable` decides whether a job should try again
// (same idempotency key), `code` is a stable machine-readable reason. The message
// is safe to log: it never carries card data or secrets.
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  readonly code: string;
  readonly retryable: boolean;
  readonly statusCode: number | null;
  readonly requestId: string | null;

  constructor(
    message: string,
    opts: { code: string; retryable: boolean; statusCode?: number | null; requestId?: string | null; cause?: unknown },
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.code = opts.code;
    this.retryable = opts.retryable;
    this.statusCode = opts.statusCode ?? null;
    this.requestId = opts.requestId ?? null;
  }
}

// A blank key would let the SDK invent a random one per call, silently losing the
// retry guarantee, so both adapters refuse it up front.
export function requireIdempotencyKey(key: string): string {
  if (key.trim() === '') {
    throw new ProviderError('An idempotency key is required for this payment call', {
      code: 'missing_idempotency_key',
      retryable: false,
    });
  }
  return key;
}

// Both adapters receive Stripe-shaped events (the simulated one signs the same
// format), so one mapping serves both.
// Every field is bounded and shaped like the processor's own (ids of letters, digits and underscores;
// dotted lower-case names), so what reaches the database is what the processor could have sent.
const stripeId = z.string().max(255).regex(/^[A-Za-z0-9_]+$/, 'letters, digits and _ only');
const name = z.string().max(100).regex(/^[a-z0-9_.]+$/, 'lower-case letters, digits, _ and . only');
const eventSchema = z.object({
  id: stripeId,
  type: name,
  data: z.object({
    object: z.object({
      id: stripeId.optional(),
      object: name.optional(),
      status: name.nullable().optional(),
      payment_intent: z.union([stripeId, z.object({ id: stripeId })]).nullable().optional(),
    }),
  }),
});

export function toProviderEvent(value: unknown): ProviderEvent {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new WebhookPayloadError('Webhook payload is not an event object', 'body');
  const parsed = eventSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.') || 'body';
    throw new WebhookPayloadError(`Webhook payload is not a valid event: ${field} ${plainWords(issue.message)}`, field);
  }
  const { id, type, data } = parsed.data;
  const object = data.object;
  if (object.object === 'payment_intent' && object.id !== undefined) {
    return { id, type, intentId: object.id, status: object.status ?? null };
  }
  const related = object.payment_intent;
  const intentId = typeof related === 'string' ? related : (related?.id ?? null);
  return { id, type, intentId, status: null };
}
