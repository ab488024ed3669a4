// Endpoints that need the raw request (signed webhooks verify the exact bytes received), kept outside
// the GraphQL-backed route table.
import type { Services } from '../services/index.js';
import { stripeWebhookRoute } from '../http/payment-webhook-route.js';
import { oauthRoutes } from '../http/oauth-routes.js';
import { sendJson } from '../http/respond.js';
import type { RawRoute } from '../http/raw-route.js';

export function rawRoutes(services: Services): RawRoute[] {
  return [stripeWebhookRoute(services.payments), ...oauthRoutes(services.oauth), jwksRoute(services)];
}

// The public keys receipts are signed with (RFC 7517), for anyone checking one (docs/receipts.md).
function jwksRoute(services: Services): RawRoute {
  return {
    method: 'GET',
    path: '/.well-known/jwks.json',
    async handle(_req, res) {
      sendJson(res, 200, await services.receipts.jwks(), { 'cache-control': 'public, max-age=300', 'access-control-allow-origin': '*' });
    },
  };
}
