// Stripe's errors as the provider's: declines told apart from failures, retryable failures marked, and
// keys, secrets and card numbers removed from every message that leaves here.
import type Stripe from 'stripe';
import { ProviderError } from '../provider.js';

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

// A Stripe error with this `code`.
export function hasStripeCode(err: unknown, code: string): boolean {
  return stripeType(err) !== null && (err as StripeErrorLike).code === code;
}

export function isUnexpectedState(err: unknown): boolean {
  return hasStripeCode(err, 'payment_intent_unexpected_state');
}

export function isSignatureError(err: unknown): boolean {
  return stripeType(err) === 'StripeSignatureVerificationError';
}

export function asDecline(err: unknown): { intentId: string | null; message: string } | null {
  if (stripeType(err) !== 'StripeCardError') return null;
  const e = err as StripeErrorLike;
  const intentId = typeof e.payment_intent?.id === 'string' ? e.payment_intent.id : null;
  if (e.code === 'authentication_required') {
    return { intentId, message: 'The card needs the cardholder to authenticate, so it cannot be charged automatically' };
  }
  const message = typeof e.message === 'string' && e.message !== '' ? scrub(e.message) : 'The card was declined';
  return { intentId, message };
}

export function declineMessageOf(intent: Stripe.PaymentIntent): string {
  const message = intent.last_payment_error?.message;
  return message ? scrub(message) : 'The card was declined';
}

export function unexpectedStatus(operation: string, status: string): ProviderError {
  return new ProviderError(`Stripe left the payment in an unexpected state (${status}) during ${operation}`, {
    code: 'unexpected_status',
    retryable: false,
  });
}

export function notCapturable(status: string): ProviderError {
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

export function toProviderError(operation: string, err: unknown): ProviderError {
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
