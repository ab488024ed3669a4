// An endpoint of another protocol (MCP, A2A) mounted beside /v1 and /graphql: the router admits the
// request (authentication and rate limits, http/admission.ts) and hands it over with the caller.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Authentication } from '../auth/authenticate.js';

export interface ProtocolRoute {
  // The route template it answers for in logs and metrics, or null when the path is not its.
  match(path: string): string | null;
  handle(req: IncomingMessage, res: ServerResponse, url: URL, authentication: Authentication | undefined): Promise<void>;
}
