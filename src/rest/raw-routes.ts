// Endpoints that need the raw request (signed webhooks verify the exact bytes received), kept outside
// the GraphQL-backed route table.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Services } from '../services/index.js';
import { stripeWebhookRoute } from '../payments/webhook-route.js';
import { oauthRoutes } from '../http/oauth-routes.js';

export interface RawRoute {
  method: string;
  path: string;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  // Its OpenAPI operation object, for the /v1 document.
  openapi?: Record<string, unknown>;
}

export function rawRoutes(services: Services): RawRoute[] {
  return [stripeWebhookRoute(services.payments), ...oauthRoutes(services.oauth)];
}
