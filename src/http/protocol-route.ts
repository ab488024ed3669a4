// An endpoint of another protocol (MCP, A2A) mounted beside /v1 and /graphql: the router admits the
// request (authentication and rate limits, http/admission.ts) and hands it over with the caller.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Authentication } from '../services/accounts/authenticate.js';
import type { Charge, HttpRoute } from './route.js';

export type { Charge };

export interface ProtocolRoute {
  // The route template it answers for in logs and metrics, or null when the request is not its.
  match(path: string, req: IncomingMessage): string | null;
  // Its endpoints as operations of the OpenAPI document, one per method and route template that match
  // answers; the protocol's own wire format (JSON-RPC, its error objects) is described, not served, by them.
  operations: Array<Pick<HttpRoute, 'method' | 'path' | 'openapi'>>;
  // The route checks its own credentials (a task token, not an API key): the request is counted by
  // address and its Authorization header is not looked up as an API key.
  ownCredentials?: boolean;
  // `charge` counts further requests against the same caller's budget (the calls of a JSON-RPC batch
  // beyond the first); false when that went over it, and the 429 has been answered.
  handle(req: IncomingMessage, res: ServerResponse, url: URL, authentication: Authentication | undefined, charge: Charge): Promise<void>;
}
