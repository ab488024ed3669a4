// One HTTP route of the service: health and metrics (http/health-routes.ts), REST's GraphQL-backed routes
// (rest/runner.ts), signing in (http/routes/auth.ts), OAuth's endpoints, the files, the Stripe webhook, the
// JWKS and the OpenAPI document are each a list of these. The router (http/router.ts) matches the method and path, admits the
// request as the route says, checks that a caller's credential verified when one is needed, decodes the
// path parameters and answers any error the handler throws through the one error encoder
// (http/respond.ts) in the route's format. Every route is an operation of the OpenAPI document.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Authentication } from '../services/accounts/authenticate.js';
import type { SchemaComponents } from '../rest/openapi/json-schema.js';
import type { ErrorFormat } from './respond.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

// Counts further requests against the same caller's budget (the calls of a JSON-RPC batch beyond the
// first); false when that went over it, and the 429 has been answered.
export type Charge = (requests: number) => Promise<boolean>;

export interface RouteCall {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  // The path's parameters by name, percent-decoded.
  params: Record<string, string>;
  // The caller as admission found it (undefined for routes admitted by address or not at all).
  authentication: Authentication | undefined;
  charge: Charge;
}

// An OpenAPI operation object, or how to build it from the document's shared schemas (REST's operations
// come from their GraphQL documents, whose types become named components).
export type OpenApiOperation = Record<string, unknown>;
export type OperationSource = OpenApiOperation | ((components: SchemaComponents) => OpenApiOperation);

export interface HttpRoute {
  method: HttpMethod;
  // The path template: `:name` is one segment, given to the handler in `params`. A trailing slash is
  // accepted. It names the request in logs and metrics.
  path: string;
  // A GET route that also answers HEAD (the headers of the GET, no body).
  head?: boolean;
  // Which credential it takes: 'public', none (one sent is still used to count the caller); 'caller',
  // the caller's API key, session or access token, which admission looked up, and without which (or with
  // one that does not verify) the router answers 401 before the handler reads the body; 'own', one the
  // handler checks itself (a task token, a link's signature, a processor's signature, an app's secret),
  // so the Authorization header is never looked up as an API key.
  credential: 'public' | 'caller' | 'own';
  // Whose budget the request is counted against (http/admission.ts): the caller's (else its address's),
  // the address's alone, or none (documents anyone may read often, a processor's deliveries).
  admission: 'caller' | 'address' | 'none';
  // The shape of its error answers: the API's envelope, or RFC 6749's (OAuth's endpoints).
  errors?: ErrorFormat;
  // Only for requests it claims, when another route has the same method and path (a signed link beside
  // the signed-in form, an A2A push beside the webhook callback): the first route that claims one answers.
  claims?: (req: IncomingMessage, url: URL) => boolean;
  openapi: OperationSource;
  handle(call: RouteCall): Promise<void>;
}

// A compiled template: the pattern of the path and the names of its parameters.
export function pathPattern(template: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const source = template.replace(/:(\w+)/g, (_m, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { pattern: new RegExp(`^${source}/?$`), names };
}

export const openApiPath = (template: string) => template.replace(/:(\w+)/g, '{$1}');
