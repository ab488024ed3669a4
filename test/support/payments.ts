// Helpers for the payment tests: a running service with either payment provider, the requester's side of
// the processor (the client library's confirmation), signed processor webhooks, and polling.
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { intentIdFromClientSecret } from '../../src/payments/index.js';
import { startStripeStandin, type StripeStandin } from './stripe-standin.js';
import { startTestServer, type TestServer } from './server.js';

export const WEBHOOK_SECRET = 'whsec_test';

export interface PaymentWorld {
  provider: 'stripe' | 'simulated';
  server: TestServer;
  // The Stripe stand-in when the provider is stripe: what the processor was asked to do.
  standin: StripeStandin | null;
  // What the requester's client library does with a client secret: confirm the hold with a card. With
  // Stripe the processor then reports the authorization by webhook; the simulated endpoint does both.
  confirm(clientSecret: string, requesterKey: string, paymentMethodId?: string): Promise<void>;
  // POSTs a signed processor event to /v1/webhooks/stripe.
  sendEvent(event: { id: string; type: string; object: Record<string, unknown> }): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

const stripeHelpers = new Stripe('sk_test_helpers');

export function signedWebhook(payload: string, secret = WEBHOOK_SECRET): string {
  return stripeHelpers.webhooks.generateTestHeaderString({ payload, secret });
}

export async function startPaymentWorld(provider: 'stripe' | 'simulated', env: Record<string, string> = {}): Promise<PaymentWorld> {
  const standin = provider === 'stripe' ? await startStripeStandin() : null;
  const server = await startTestServer({
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    ...(standin
      ? { STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_PUBLISHABLE_KEY: 'pk_test_x', STRIPE_API_HOST: '127.0.0.1', STRIPE_API_PORT: String(standin.port), STRIPE_API_PROTOCOL: 'http' }
      : {}),
    ...env,
  });
  // The requester's own client of the processor (Stripe.js stands in as the SDK on the stand-in).
  const client = standin ? new Stripe('sk_test_client', { host: '127.0.0.1', port: standin.port, protocol: 'http', maxNetworkRetries: 0 }) : null;

  async function sendEvent(event: { id: string; type: string; object: Record<string, unknown> }) {
    const payload = JSON.stringify({ id: event.id, object: 'event', type: event.type, data: { object: event.object }, livemode: false, created: 0 });
    const res = await fetch(`${server.url}/v1/webhooks/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signedWebhook(payload) },
      body: payload,
    });
    return { status: res.status, body: await res.json() };
  }

  return {
    provider,
    server,
    standin,
    sendEvent,
    async confirm(clientSecret, requesterKey, paymentMethodId = 'pm_card_visa') {
      if (!client) {
        const res = await server.api.post('/v1/billing/simulate/confirm', { key: requesterKey, body: { clientSecret, paymentMethodId } });
        if (res.status !== 200) throw new Error(`simulated confirmation failed: ${JSON.stringify(res.body)}`);
        return;
      }
      const intentId = intentIdFromClientSecret(clientSecret)!;
      const intent = await client.paymentIntents.confirm(intentId, { payment_method: paymentMethodId });
      const sent = await sendEvent({ id: `evt_${randomBytes(8).toString('hex')}`, type: 'payment_intent.amount_capturable_updated', object: intent as never });
      if (sent.status !== 200) throw new Error(`webhook refused: ${JSON.stringify(sent.body)}`);
    },
    async close() {
      await server.close();
      await standin?.close();
    },
  };
}
