// The routes outside the GraphQL-backed table that need the raw request or answer a document of a
// standard: the Stripe webhook (verifies the exact bytes received), OAuth's endpoints and the JWKS.
import type { Services } from '../services/index.js';
import { stripeWebhookRoute } from '../http/payment-webhook-route.js';
import { oauthRoutes } from '../http/oauth-routes.js';
import { sendJson } from '../http/respond.js';
import type { HttpRoute } from '../http/route.js';

export function rawRoutes(services: Services): HttpRoute[] {
  return [stripeWebhookRoute(services.payments), ...oauthRoutes(services.oauth), jwksRoute(services)];
}

const JWK_SET = {
  type: 'object',
  properties: { keys: { type: 'array', items: { type: 'object', properties: { kty: { type: 'string' }, kid: { type: 'string' }, crv: { type: 'string' }, x: { type: 'string' } } } } },
  required: ['keys'],
};

// The public keys receipts are signed with (RFC 7517), for anyone checking one (docs/receipts.md).
function jwksRoute(services: Services): HttpRoute {
  return {
    method: 'GET',
    path: '/.well-known/jwks.json',
    credential: 'public',
    admission: 'none',
    openapi: {
      operationId: 'ReceiptKeys',
      summary: 'The public keys receipts are signed with (a JWK set)',
      tags: ['receipts'],
      security: [],
      responses: { '200': { description: 'The keys', content: { 'application/json': { schema: JWK_SET } } } },
    },
    async handle({ res }) {
      sendJson(res, 200, await services.receipts.jwks(), { 'cache-control': 'public, max-age=300', 'access-control-allow-origin': '*' });
    },
  };
}
