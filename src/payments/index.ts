// Chooses the payment adapter from configuration: Stripe when a secret key is set,
// otherwise the simulated adapter, which needs nothing but the server key.
import { createHmac } from 'node:crypto';
import { createSimulatedProvider } from './simulated-provider.js';
import { createStripeProvider } from './stripe/index.js';
import type { PaymentProvider } from './provider.js';

export * from './provider.js';
export { createStripeProvider, type StripeProviderOptions } from './stripe/index.js';
export {
  createSimulatedProvider,
  intentIdFromClientSecret,
  isSimulatedProvider,
  signSimulatedEvent,
  type SimulatedConfirmation,
  type SimulatedProvider,
} from './simulated-provider.js';

export type PaymentConfig = {
  // The server key: the simulated adapter's secrets are derived from it, so none is a constant of the
  // source nor computable from public ids.
  serverKey: Buffer;
  stripeSecretKey?: string;
  stripeWebhookSecret?: string;
  stripeApiHost?: string;
  stripeApiPort?: number;
  stripeApiProtocol?: 'http' | 'https';
};

export function createPaymentProvider(config: PaymentConfig): PaymentProvider {
  if (config.stripeSecretKey) {
    // Without the webhook secret no Stripe event could ever be verified, and
    // payments confirmed by requesters would never settle; fail at start instead.
    if (!config.stripeWebhookSecret) {
      throw new Error('STRIPE_WEBHOOK_SECRET is required when STRIPE_SECRET_KEY is set');
    }
    return createStripeProvider({
      secretKey: config.stripeSecretKey,
      webhookSecret: config.stripeWebhookSecret,
      host: config.stripeApiHost,
      port: config.stripeApiPort,
      protocol: config.stripeApiProtocol,
    });
  }
  // Without STRIPE_WEBHOOK_SECRET nobody outside the process can sign an event: holds are confirmed
  // through the requester's confirmation endpoint only.
  return createSimulatedProvider({
    webhookSecret: config.stripeWebhookSecret || `whsec_${derive(config.serverKey, 'webhook').toString('hex')}`,
    idKey: derive(config.serverKey, 'ids'),
  });
}

function derive(serverKey: Buffer, purpose: string): Buffer {
  return createHmac('sha256', serverKey).update(`simulated-payments:${purpose}`).digest();
}
