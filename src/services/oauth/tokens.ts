// The token endpoint (RFC 6749 §3.2) and revocation (RFC 7009), and the bearer of an access token. Codes
// and tokens are opaque random strings stored as SHA-256, so revoking a grant ends every token of it at
// once. A code or refresh token presented twice revokes its grant (someone else holds a copy).
import { createHash } from 'node:crypto';
import { sha256Hex } from '../../crypto/tokens.js';
import type { User } from '../../generated/prisma/client.js';
import { isScope, type Scope } from '../../auth/scopes.js';
import * as store from '../../stores/oauth-store.js';
import { scopesOfParameter } from './authorize.js';
import { ACCESS_TOKEN_PREFIX, base, OAuthError, REFRESH_TOKEN_PREFIX, revokeGrants, secret, trimSlash, type OAuthContext } from './context.js';

const LAST_USED_RESOLUTION_MS = 60_000;

const s256 = (verifier: string) => createHash('sha256').update(verifier, 'ascii').digest('base64url');

// The audience a token's resource grants (RFC 8707): /mcp, /a2a, or the API, which is REST /v1 and
// GraphQL (HTTP, SSE, WebSocket) together (REST is a table over the same GraphQL operations), named by
// the base URL or, as some hosts do, by its /graphql endpoint.
const audienceOf = (ctx: OAuthContext, resource: string) => (resource === `${base(ctx)}/graphql` ? base(ctx) : resource);

// The resource a request is for, from its path.
function resourceOfPath(ctx: OAuthContext, path: string) {
  for (const endpoint of ['/mcp', '/a2a']) if (path === endpoint || path.startsWith(`${endpoint}/`)) return `${base(ctx)}${endpoint}`;
  return base(ctx);
}

async function issueTokens(ctx: OAuthContext, grant: store.GrantRow) {
  const { config } = ctx.deps;
  const now = ctx.deps.clock.now().getTime();
  const accessToken = secret(ACCESS_TOKEN_PREFIX);
  const refreshToken = secret(REFRESH_TOKEN_PREFIX);
  const accessTtl = config.oauth.accessTokenTtlSeconds;
  await store.insertTokens(ctx.deps.sql, [
    { hash: sha256Hex(accessToken), grantId: grant.id, kind: 'access', expiresAt: new Date(now + accessTtl * 1000) },
    { hash: sha256Hex(refreshToken), grantId: grant.id, kind: 'refresh', expiresAt: new Date(now + config.oauth.refreshTokenTtlDays * 86_400_000) },
  ]);
  return { access_token: accessToken, token_type: 'Bearer', expires_in: accessTtl, refresh_token: refreshToken, scope: grant.scopes.join(' ') };
}

async function byCode(ctx: OAuthContext, form: URLSearchParams, clientId: string) {
  const { sql: db, clock } = ctx.deps;
  const code = form.get('code');
  const verifier = form.get('code_verifier');
  if (!code) throw new OAuthError('invalid_request', 'code is missing');
  if (!verifier) throw new OAuthError('invalid_request', 'code_verifier is missing: PKCE is required');
  const hash = sha256Hex(code);
  const found = await store.peekCode(db, hash);
  if (!found) throw new OAuthError('invalid_grant', 'the code is not valid');
  const replayed = async () => {
    await revokeGrants(ctx, { id: found.grant.id });
    return new OAuthError('invalid_grant', 'the code was already used; the tokens issued for it are revoked');
  };
  if (found.code.usedAt) throw await replayed();
  const { code: row, grant } = found;
  if (grant.clientId !== clientId) throw new OAuthError('invalid_grant', 'the code was issued to another client');
  if (row.expiresAt <= clock.now() || grant.revokedAt) throw new OAuthError('invalid_grant', 'the code has expired');
  if (form.get('redirect_uri') !== row.redirectUri) throw new OAuthError('invalid_grant', 'redirect_uri differs from the authorization request\'s');
  if (s256(verifier) !== row.codeChallenge) throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge');
  const resource = form.get('resource');
  if (resource && trimSlash(resource) !== grant.resource) throw new OAuthError('invalid_target', 'resource differs from the authorization request\'s');
  // Spent by one conditional update: of two requests racing with the same code, one wins.
  const used = await store.useCode(db, hash, clock.now());
  if (used === undefined) throw new OAuthError('invalid_grant', 'the code is not valid');
  if (used === 'replayed') throw await replayed();
  return issueTokens(ctx, used.grant);
}

async function byRefreshToken(ctx: OAuthContext, form: URLSearchParams, clientId: string) {
  const { sql: db, clock } = ctx.deps;
  const token = form.get('refresh_token');
  if (!token) throw new OAuthError('invalid_request', 'refresh_token is missing');
  const hash = sha256Hex(token);
  const found = await store.peekRefreshToken(db, hash);
  if (!found) throw new OAuthError('invalid_grant', 'the refresh token is not valid');
  const replayed = async () => {
    await revokeGrants(ctx, { id: found.grant.id });
    return new OAuthError('invalid_grant', 'the refresh token was already used; every token of this authorization is revoked');
  };
  if (found.usedAt) throw await replayed();
  if (found.grant.clientId !== clientId) throw new OAuthError('invalid_grant', 'the refresh token was issued to another client');
  if (found.grant.revokedAt || found.expiresAt <= clock.now()) throw new OAuthError('invalid_grant', 'the refresh token is revoked or expired');
  const scope = form.get('scope');
  if (scope) {
    const asked = scopesOfParameter(scope);
    if (asked.some((s) => !found.grant.scopes.includes(s))) throw new OAuthError('invalid_scope', 'a refresh cannot widen the scopes granted');
  }
  const used = await store.useRefreshToken(db, hash, clock.now());
  if (used === undefined) throw new OAuthError('invalid_grant', 'the refresh token is not valid');
  if (used === 'replayed') throw await replayed();
  return issueTokens(ctx, used.grant);
}

// The token endpoint for both grants. Every check of the request (client, redirect, verifier, resource,
// scope) is made before the code or refresh token is spent: a client that sends a wrong value, or another
// client holding a copy, does not cost the rightful client its grant.
export async function token(ctx: OAuthContext, form: URLSearchParams) {
  const grantType = form.get('grant_type');
  const clientId = form.get('client_id');
  if (!clientId) throw new OAuthError('invalid_client', 'client_id is missing', 401);
  if (grantType === 'authorization_code') return byCode(ctx, form, clientId);
  if (grantType === 'refresh_token') return byRefreshToken(ctx, form, clientId);
  throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
}

// RFC 7009. The client names itself (public clients have no secret, so client_id is their
// authentication, §2.1): without one, or with an unknown one, the request is refused (401
// invalid_client). A token issued to another client is answered as an unknown token is (200, §2.2)
// and left alone, so a client learns nothing about, and can end nothing of, another's tokens. Any
// token of a grant revokes the grant.
export async function revoke(ctx: OAuthContext, token: string, clientId: string | null) {
  const db = ctx.deps.sql;
  if (!clientId) throw new OAuthError('invalid_client', 'client_id is missing: name the app the token was issued to', 401);
  if (!(await store.clientById(db, clientId.slice(0, 200)))) throw new OAuthError('invalid_client', 'no app is registered with this client_id', 401);
  const grant = await store.grantOfToken(db, sha256Hex(token));
  if (grant && grant.clientId === clientId) await revokeGrants(ctx, { id: grant.id });
}

// The bearer of an access token used on `path`: its user, its grant (the credential subscriptions
// remember) and scopes. A token is good only at the resource it was issued for (RFC 8707; the MCP
// authorization spec's audience check): one for /a2a does not open /mcp or the API, and so on.
export async function userForAccessToken(
  ctx: OAuthContext,
  token: string,
  path: string,
): Promise<{ user: User; grantId: string; scopes: Scope[]; expiresAt: Date } | { wrongResource: string } | null> {
  const found = await store.accessTokenWithUser(ctx.deps.sql, sha256Hex(token));
  const now = ctx.deps.clock.now();
  if (!found || found.grant.revokedAt || found.expiresAt <= now) return null;
  if (audienceOf(ctx, found.grant.resource) !== resourceOfPath(ctx, path)) return { wrongResource: found.grant.resource };
  await store.touchGrant(ctx.deps.sql, found.grant.id, now, LAST_USED_RESOLUTION_MS);
  return { user: found.user, grantId: found.grant.id, scopes: found.grant.scopes.filter(isScope), expiresAt: found.expiresAt };
}
