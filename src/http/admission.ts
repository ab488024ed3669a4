// Admission: every HTTP request to /v1 or /graphql and every WebSocket subscription is authenticated once
// and counted against its caller's budget (http/rate-limit.ts): the user's, else the address's, or the
// address's failed-authentication budget when the credentials did not verify.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config.js';
import type { Authentication } from '../services/accounts/authenticate.js';
import { clientAddress } from './client-address.js';
import { credentialOf, sessionCookieName } from '../auth/session-cookie.js';
import { sendError, type ErrorFormat } from './respond.js';
import type { RateLimitDecision, RateLimits, RateLimitStore } from './rate-limit.js';

// Across processes: Redis when configured, else the PostgreSQL server; the embedded database has one process.
export function rateLimitStore(config: Config, database: { embedded: boolean; url: string }): RateLimitStore {
  if (config.rateLimit.redisUrl) return { kind: 'redis', url: config.rateLimit.redisUrl };
  return database.embedded ? { kind: 'memory' } : { kind: 'postgres', url: database.url };
}

export const overBudget = (retryAfterSeconds: number) => `too many requests; retry in ${retryAfterSeconds}s`;

export interface Admission {
  // Counts a caller whose credentials were already looked up; null when no budget applies.
  count(authentication: Authentication | undefined, req: IncomingMessage, requests?: number): Promise<RateLimitDecision | null>;
  // Counts `requests` more requests of an admitted caller (the calls of a JSON-RPC batch beyond the
  // first). Returns false when that went over the budget; the 429 has been answered then, in `format`.
  charge(authentication: Authentication | undefined, req: IncomingMessage, res: ServerResponse, requests: number, format?: ErrorFormat): Promise<boolean>;
  // Authenticates the caller and counts the request. Returns null when the request was refused with 429;
  // the headers of the budget go on every answer. `path`: the request's path, as the router parsed it
  // (an app's access token is good only at the resource it was issued for).
  admit(req: IncomingMessage, res: ServerResponse, path: string): Promise<{ authentication: Authentication | undefined } | null>;
  // The address the caller is counted by.
  address(req: IncomingMessage): string;
}

export function createAdmission(opts: {
  limits: RateLimits;
  authenticateHeader: (authorization: string | null | undefined, path: string) => Promise<Authentication>;
  trustedProxyHops: number;
  // The service's address, which names the session cookie (auth/session-cookie.ts).
  baseUrl: () => string;
}): Admission {
  const address = (req: IncomingMessage) => clientAddress(req, opts.trustedProxyHops);
  const count = (authentication: Authentication | undefined, req: IncomingMessage, requests = 1) =>
    opts.limits.check(
      {
        principal: authentication?.principal ?? null,
        authFailed: authentication ? authentication.authError !== null : false,
        address: address(req),
      },
      requests,
    );

  // Counts and puts the budget's fields on the answer; answers 429 and returns false when over it.
  async function charge(authentication: Authentication | undefined, req: IncomingMessage, res: ServerResponse, requests: number, format?: ErrorFormat) {
    if (requests < 1) return true;
    const decision = await count(authentication, req, requests);
    if (decision) for (const [name, value] of Object.entries(decision.headers)) res.setHeader(name, value);
    if (decision && !decision.allowed) {
      sendError(res, { code: 'RATE_LIMITED', message: overBudget(decision.retryAfterSeconds) }, {}, format);
      return false;
    }
    return true;
  }

  async function admit(req: IncomingMessage, res: ServerResponse, path: string) {
    // A look-up that breaks (database down) is counted by address here and left to fail again inside
    // the GraphQL pipeline, which answers and logs it in the shape of the endpoint.
    const authentication = await opts.authenticateHeader(credentialOf(req.headers, sessionCookieName(opts.baseUrl())), path).catch(() => undefined);
    if (!(await charge(authentication, req, res, 1))) return null;
    return { authentication };
  }

  return { count, charge, admit, address };
}
