// Chooses the payment adapter from configuration: Stripe when a secret key is set,
// otherwise the simulated adapter, which needs nothing.
import { createSimulatedProvider } from './simulated-provider.js';
import { createStripeProvider } from './stripe-provider.js';
import type { PaymentProvider } from './provider.js';

export * from './provider.js';
export { createStripeProvider, type StripeProviderOptions } from './stripe-provider.js';
export {
  createSimulatedProvider,
  intentIdFromClientSecret,
  isSimulatedProvider,
  signSimulatedEvent,
  type SimulatedConfirmation,
  type SimulatedProvider,
} from './simulated-provider.js';

// The simulated adapter's webhook secret when none is configured. It is public (it
// is right here), which is fine: simulated payments move no money. Set
// STRIPE_WEBHOOK_SECRET to use another one, e.g. to mimic a deployment.
export const SIMULATED_DEV_WEBHOOK_SECRET = 'whsec_simulated_dev_only';

export type PaymentConfig = {
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
  return createSimulatedProvider({ webhookSecret: config.stripeWebhookSecret || SIMULATED_DEV_WEBHOOK_SECRET });
}
