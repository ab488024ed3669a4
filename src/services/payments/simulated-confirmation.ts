// The simulated provider's stand-in for the processor's client library: the requester confirms a hold
// with its client secret, outside production only.
import type { PaymentStatus } from '../../generated/prisma/client.js';
import { conflict, forbidden, invalid, notFound, unauthenticated } from '../../errors.js';
import { ProviderError, intentIdFromClientSecret, isSimulatedProvider } from '../../payments/index.js';
import { taskPaymentKey } from '../../payments/keys.js';
import * as store from '../../stores/payment-store.js';
import type { Viewer } from '../accounts/index.js';
import { handleEvent } from './events.js';
import { declined } from './holds.js';
import type { PaymentContext } from './types.js';

/**
 * Simulated provider only, outside production: what the processor's client library does with a client
 * secret, for the task's requester. A success is handled exactly as the processor's webhook would be,
 * under the same event id.
 */
export async function simulateConfirmation(ctx: PaymentContext, viewer: Viewer | null, clientSecret: string, paymentMethodId = 'pm_card_visa'): Promise<{ status: PaymentStatus }> {
  const { deps, provider } = ctx;
  if (!isSimulatedProvider(provider) || deps.config.env === 'production') throw notFound('simulated payments are not enabled; the endpoint');
  if (!viewer) throw unauthenticated('send Authorization: Bearer <API key or access token> of the task\'s requester');
  const intentId = intentIdFromClientSecret(clientSecret);
  if (!intentId) throw invalid('clientSecret', 'clientSecret is not a payment client secret');
  const payment = await store.paymentWithRequester(deps.sql, { intentId });
  if (!payment) throw notFound('payment');
  let confirmation;
  try {
    confirmation = provider.confirmHold({ clientSecret, idempotencyKey: taskPaymentKey(payment.taskId, 'authorize'), paymentMethodId });
  } catch (error) {
    if (error instanceof ProviderError) throw notFound('payment');
    throw error;
  }
  // Checked after the secret, so that a stranger learns nothing about which intents exist.
  if (payment.task.requesterId !== viewer.id) throw forbidden('only the task\'s requester confirms its payment');
  if (payment.status === 'authorized') return { status: 'authorized' };
  if (payment.status !== 'pending') throw conflict(`the payment is ${payment.status}; it can no longer be confirmed`, { status: payment.status });
  if (confirmation.status === 'declined') throw declined(confirmation.message);
  await handleEvent(ctx, { id: confirmation.eventId, type: 'payment_intent.amount_capturable_updated', intentId, status: 'requires_capture' });
  const after = await store.paymentById(deps.sql, payment.id);
  return { status: after!.status };
}
