// A route that needs the raw request (a signed webhook verifies the exact bytes received, OAuth's
// endpoints speak forms and their own errors), kept outside the GraphQL-backed route table.
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface RawRoute {
  method: string;
  path: string;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  // Its OpenAPI operation object, for the /v1 document.
  openapi?: Record<string, unknown>;
}
