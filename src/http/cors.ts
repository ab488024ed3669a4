// CORS for browsers calling /v1 and /graphql from the origins in CORS_ORIGINS, and only those. Other
// origins get no Access-Control-Allow-Origin, so the browser keeps the answer from the page. yoga's own
// CORS is off (it echoes any origin by default); this one policy covers both. No credentials mode:
// callers authenticate with the Authorization header, not cookies.
import type { IncomingMessage, ServerResponse } from 'node:http';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const REQUEST_HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id'];
const EXPOSED_HEADERS = ['RateLimit', 'RateLimit-Policy', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After', 'X-Request-Id', 'Idempotent-Replayed', 'Allow'];
const MAX_AGE_SECONDS = 600;

export interface Cors {
  // Adds the CORS headers an allowed origin gets; answers a preflight outright (returns true then).
  handle(req: IncomingMessage, res: ServerResponse): boolean;
}

export function createCors(allowedOrigins: string[]): Cors {
  const allowed = new Set(allowedOrigins);
  return {
    handle(req, res) {
      const origin = req.headers.origin;
      const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
      res.setHeader('vary', 'Origin');
      if (typeof origin === 'string' && allowed.has(origin)) {
        res.setHeader('access-control-allow-origin', origin);
        res.setHeader('access-control-expose-headers', EXPOSED_HEADERS.join(', '));
        if (preflight) {
          res.setHeader('access-control-allow-methods', METHODS.join(', '));
          res.setHeader('access-control-allow-headers', REQUEST_HEADERS.join(', '));
          res.setHeader('access-control-max-age', String(MAX_AGE_SECONDS));
        }
      }
      if (!preflight) return false;
      // A preflight from an origin not on the list gets an empty answer without CORS headers: refused.
      res.writeHead(204);
      res.end();
      return true;
    },
  };
}
