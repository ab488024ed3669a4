// The OAuth endpoints (services/oauth/) and the discovery documents MCP hosts start from: RFC 8414
// authorization server metadata and RFC 9728 protected resource metadata. They carry no cookies and
// answer any origin, so an app in a browser can use them too. /oauth/authorize itself is the dashboard's
// consent page (web/src/pages/consent.tsx).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpRoute, OpenApiOperation } from './route.js';
import { OAuthError, type OAuthService } from '../services/oauth/index.js';
import { AppError, type ErrorCode } from '../errors.js';
import { isJsonContentType, readBody } from './body.js';
import { sendAppError, sendError, sendJson } from './respond.js';
import { oauthOperations } from './oauth-operations.js';

const OAUTH_BODY_LIMIT = 16 * 1024;
const OPEN = { 'access-control-allow-origin': '*', 'cache-control': 'no-store' };

// The API's code of an OAuth error's status, which the one encoder answers with (http/respond.ts).
const CODE_OF_STATUS: Record<number, ErrorCode> = { 400: 'INVALID_INPUT', 401: 'UNAUTHENTICATED', 413: 'PAYLOAD_TOO_LARGE' };

async function answer(res: ServerResponse, run: () => Promise<{ status: number; body: unknown }>) {
  try {
    const { status, body } = await run();
    sendJson(res, status, body, OPEN);
  } catch (error) {
    if (error instanceof OAuthError) {
      return sendError(res, { code: CODE_OF_STATUS[error.status] ?? 'INVALID_INPUT', message: error.description, oauthError: error.error }, OPEN, 'oauth');
    }
    if (error instanceof AppError) return sendAppError(res, error, OPEN, 'oauth');
    throw error;
  }
}
async function formOf(req: IncomingMessage): Promise<URLSearchParams> {
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type)) throw new OAuthError('invalid_request', 'the body must be application/x-www-form-urlencoded');
  return new URLSearchParams((await readBody(req, OAUTH_BODY_LIMIT)).toString('utf8'));
}

async function jsonOf(req: IncomingMessage): Promise<Record<string, unknown>> {
  if (!isJsonContentType(req.headers['content-type'])) throw new OAuthError('invalid_client_metadata', 'the body must be JSON');
  let body: unknown;
  try {
    body = JSON.parse((await readBody(req, OAUTH_BODY_LIMIT)).toString('utf8'));
  } catch {
    throw new OAuthError('invalid_client_metadata', 'the body is not valid JSON');
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new OAuthError('invalid_client_metadata', 'the body must be a JSON object');
  return body as Record<string, unknown>;
}

// The discovery documents: read by anyone, often, so not counted.
const get = (path: string, openapi: OpenApiOperation, body: () => unknown): HttpRoute => ({
  method: 'GET',
  path,
  credential: 'public',
  admission: 'none',
  openapi,
  handle: async ({ res }) => sendJson(res, 200, body(), { 'access-control-allow-origin': '*' }),
});

// The endpoints take no credential of the caller (an app proves itself by its client_id and PKCE) but
// write rows (apps, codes, tokens): counted by address.
const post = (path: string, openapi: OpenApiOperation, run: (req: IncomingMessage) => Promise<{ status: number; body: unknown }>): HttpRoute => ({
  method: 'POST',
  path,
  credential: 'own',
  admission: 'address',
  errors: 'oauth',
  openapi,
  handle: ({ req, res }) => answer(res, () => run(req)),
});

export function oauthRoutes(oauth: OAuthService): HttpRoute[] {
  return [
    get('/.well-known/oauth-authorization-server', oauthOperations.authorizationServer, () => oauth.metadata()),
    get('/.well-known/oauth-protected-resource', oauthOperations.protectedResource(''), () => oauth.resourceMetadata('')),
    get('/.well-known/oauth-protected-resource/mcp', oauthOperations.protectedResource('/mcp'), () => oauth.resourceMetadata('/mcp')),
    get('/.well-known/oauth-protected-resource/a2a', oauthOperations.protectedResource('/a2a'), () => oauth.resourceMetadata('/a2a')),
    post('/oauth/register', oauthOperations.register, async (req) => ({ status: 201, body: await oauth.register(await jsonOf(req)) })),
    post('/oauth/token', oauthOperations.token, async (req) => ({ status: 200, body: await oauth.token(await formOf(req)) })),
    post('/oauth/revoke', oauthOperations.revoke, async (req) => {
      const form = await formOf(req);
      const token = form.get('token');
      if (!token) throw new OAuthError('invalid_request', 'token is missing');
      await oauth.revoke(token, form.get('client_id'));
      return { status: 200, body: {} };
    }),
  ];
}
