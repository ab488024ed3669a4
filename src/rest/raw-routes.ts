// Endpoints that need the raw request (signed webhooks verify the exact bytes received), kept outside
// the GraphQL-backed route table.
import type { Services } from '../services/index.js';
import { stripeWebhookRoute } from '../http/payment-webhook-route.js';
import { payoutReturnRoute } from '../http/payout-return-page.js';
import { oauthRoutes } from '../http/oauth-routes.js';
import type { RawRoute } from '../http/raw-route.js';

export function rawRoutes(services: Services): RawRoute[] {
  return [stripeWebhookRoute(services.payments), payoutReturnRoute(), ...oauthRoutes(services.oauth)];
}
