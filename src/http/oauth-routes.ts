// The OAuth endpoints (services/oauth/) and the discovery documents MCP hosts start from: RFC 8414
// authorization server metadata and RFC 9728 protected resource metadata. They carry no cookies and
// answer any origin, so an app in a browser can use them too. /oauth/authorize itself is the dashboard's
// consent page (web/src/pages/consent.tsx).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RawRoute } from './raw-route.js';
import { OAuthError, type OAuthService } from '../services/oauth/index.js';
import { AppError } from '../errors.js';
import { isJsonContentType, readBody } from './body.js';
import { sendJson } from './respond.js';

const OAUTH_BODY_LIMIT = 16 * 1024;
const OPEN = { 'access-control-allow-origin': '*', 'cache-control': 'no-store' };

function sendOAuthError(res: ServerResponse, error: OAuthError) {
  sendJson(res, error.status, { error: error.error, error_description: error.description }, OPEN);
}

async function answer(res: ServerResponse, run: () => Promise<{ status: number; body: unknown }>) {
  try {
    const { status, body } = await run();
    sendJson(res, status, body, OPEN);
  } catch (error) {
    if (error instanceof OAuthError) return sendOAuthError(res, error);
    if (error instanceof AppError && error.code === 'PAYLOAD_TOO_LARGE') return sendOAuthError(res, new OAuthError('invalid_request', error.message, 413));
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

const get = (path: string, body: () => unknown): RawRoute => ({
  method: 'GET',
  path,
  handle: async (_req, res) => sendJson(res, 200, body(), { 'access-control-allow-origin': '*' }),
});

export function oauthRoutes(oauth: OAuthService): RawRoute[] {
  return [
    get('/.well-known/oauth-authorization-server', () => oauth.metadata()),
    get('/.well-known/oauth-protected-resource', () => oauth.resourceMetadata('')),
    get('/.well-known/oauth-protected-resource/mcp', () => oauth.resourceMetadata('/mcp')),
    get('/.well-known/oauth-protected-resource/a2a', () => oauth.resourceMetadata('/a2a')),
    {
      method: 'POST',
      path: '/oauth/register',
      handle: (req, res) => answer(res, async () => ({ status: 201, body: await oauth.register(await jsonOf(req)) })),
    },
    {
      method: 'POST',
      path: '/oauth/token',
      handle: (req, res) => answer(res, async () => ({ status: 200, body: await oauth.token(await formOf(req)) })),
    },
    {
      method: 'POST',
      path: '/oauth/revoke',
      handle: (req, res) =>
        answer(res, async () => {
          const form = await formOf(req);
          const token = form.get('token');
          if (!token) throw new OAuthError('invalid_request', 'token is missing');
          await oauth.revoke(token, form.get('client_id'));
          return { status: 200, body: {} };
        }),
    },
  ];
}
