// Stripe's signed events, verified with the webhook secret and read as the provider's events.
import type Stripe from 'stripe';
import { toProviderEvent, WebhookPayloadError, WebhookSignatureError, type ProviderEvent } from '../provider.js';
import type { StripeContext } from './context.js';
import { isSignatureError } from './errors.js';

export function parseWebhook({ stripe, webhookSecret }: StripeContext, rawBody: Buffer, signatureHeader: string | undefined): ProviderEvent {
  if (signatureHeader === undefined || signatureHeader === '') {
    throw new WebhookSignatureError('Missing Stripe-Signature header');
  }
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(rawBody, signatureHeader, webhookSecret);
  } catch (err) {
    if (isSignatureError(err)) throw new WebhookSignatureError('Webhook signature does not verify');
    // Verified but not JSON: still nothing we can act on, answered the same way.
    throw new WebhookPayloadError('Webhook payload is not JSON', 'body');
  }
  return toProviderEvent(event);
}
