// The service as an OAuth 2.1 authorization server for its own API: apps (MCP hosts and others) register
// themselves (RFC 7591), a signed-in user consents on the dashboard, the app trades the code for a
// short-lived access token and a refresh token (PKCE S256 only, exact redirect_uri, RFC 8707 resource).
// Codes and tokens are opaque random strings stored as SHA-256, so revoking a grant ends every token of
// it at once. A code or refresh token presented twice revokes its grant (someone else holds a copy).
import { createHash, randomBytes } from 'node:crypto';
import type { Deps } from '../deps.js';
import type { User } from '../generated/prisma/client.js';
import { sha256Hex } from '../crypto/tokens.js';
import { newId } from '../ids.js';
import { allScopes, isScope, type Scope } from '../auth/scopes.js';
import * as store from '../stores/oauth-store.js';
import { displayName } from './display-name.js';

export const ACCESS_TOKEN_PREFIX = 'tma_';
const REFRESH_TOKEN_PREFIX = 'tmr_';
const CODE_PREFIX = 'tmc_';
const LAST_USED_RESOLUTION_MS = 60_000;
// How long an expired code or token, or an app nobody connected, is kept before the daily prune removes it.
const PRUNE_AFTER_MS = 86_400_000;

// An error answered to the app in OAuth's own terms (RFC 6749 §5.2), not the API's coded errors.
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
  }
}

const secret = (prefix: string) => prefix + randomBytes(32).toString('base64url');
const s256 = (verifier: string) => createHash('sha256').update(verifier, 'ascii').digest('base64url');
const trimSlash = (url: string) => url.replace(/\/+$/, '');

// An app's redirect URI: https, or http on a loopback address (a native app or a CLI); no fragment.
export function redirectUriProblem(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2000) return 'must be a URL of at most 2000 characters';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.hash) return 'must not have a fragment';
  if (url.protocol === 'https:') return null;
  const loopback = url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]';
  if (url.protocol === 'http:' && loopback) return null;
  return 'must use https (or http on localhost, 127.0.0.1 or [::1])';
}

export function scopesOfParameter(value: string | null | undefined): Scope[] {
  if (!value || !value.trim()) return [...allScopes];
  const given = value.trim().split(/\s+/);
  const unknown = given.find((s) => !isScope(s));
  if (unknown !== undefined) throw new OAuthError('invalid_scope', `"${unknown.slice(0, 50)}" is not a scope; scopes are ${allScopes.join(' ')}`);
  return [...new Set(given as Scope[])];
}

export interface AuthorizationParams {
  responseType: string | null;
  clientId: string | null;
  redirectUri: string | null;
  codeChallenge: string | null;
  codeChallengeMethod: string | null;
  scope: string | null;
  state: string | null;
  resource: string | null;
}

export function oauthService(deps: Deps) {
  const { sql: db, clock, config } = deps;
  const base = () => trimSlash(deps.urls.base);
  // The resources a token may be asked for: the whole API, or its MCP or A2A endpoint (RFC 8707).
  const resources = () => [base(), `${base()}/`, `${base()}/mcp`, `${base()}/a2a`, `${base()}/graphql`];
  // The audience a token's resource grants (RFC 8707): /mcp, /a2a, or the API, which is REST /v1 and
  // GraphQL (HTTP, SSE, WebSocket) together (REST is a table over the same GraphQL operations), named by
  // the base URL or, as some hosts do, by its /graphql endpoint.
  const audienceOf = (resource: string) => (resource === `${base()}/graphql` ? base() : resource);
  // The resource a request is for, from its path.
  const resourceOfPath = (path: string) => {
    for (const endpoint of ['/mcp', '/a2a']) if (path === endpoint || path.startsWith(`${endpoint}/`)) return `${base()}${endpoint}`;
    return base();
  };

  async function announceRevoked(grantIds: string[]) {
    for (const id of grantIds) {
      await deps.events.publishRevokedKey(id).catch((error: unknown) => deps.logger.warn({ err: error }, 'could not announce a revoked app grant'));
    }
  }

  async function revokeGrant(id: string) {
    await announceRevoked(await store.revokeGrants(db, { id }, clock.now()));
  }

  async function issueTokens(grant: store.GrantRow) {
    const now = clock.now().getTime();
    const accessToken = secret(ACCESS_TOKEN_PREFIX);
    const refreshToken = secret(REFRESH_TOKEN_PREFIX);
    const accessTtl = config.oauth.accessTokenTtlSeconds;
    await store.insertTokens(db, [
      { hash: sha256Hex(accessToken), grantId: grant.id, kind: 'access', expiresAt: new Date(now + accessTtl * 1000) },
      { hash: sha256Hex(refreshToken), grantId: grant.id, kind: 'refresh', expiresAt: new Date(now + config.oauth.refreshTokenTtlDays * 86_400_000) },
    ]);
    return { access_token: accessToken, token_type: 'Bearer', expires_in: accessTtl, refresh_token: refreshToken, scope: grant.scopes.join(' ') };
  }

  // The checks of an authorization request. A bad client or redirect_uri is shown to the user and never
  // redirected to (an open redirect); the rest go back to the app as an error on its redirect_uri.
  async function check(params: AuthorizationParams) {
    if (!params.clientId) throw new OAuthError('invalid_request', 'client_id is missing');
    const client = await store.clientById(db, params.clientId.slice(0, 200));
    if (!client) throw new OAuthError('invalid_client', 'no app is registered with this client_id');
    if (!params.redirectUri || !client.redirectUris.includes(params.redirectUri)) {
      throw new OAuthError('invalid_request', 'redirect_uri is not one the app registered');
    }
    const redirectUri = params.redirectUri;
    const back = (error: string, description: string) => ({ redirectTo: redirectWith(redirectUri, { error, error_description: description, state: params.state }) });
    if (params.responseType !== 'code') return back('unsupported_response_type', 'response_type must be code');
    if (!params.codeChallenge) return back('invalid_request', 'code_challenge is missing: PKCE is required');
    if (params.codeChallengeMethod !== 'S256') return back('invalid_request', 'code_challenge_method must be S256');
    if (!/^[A-Za-z0-9_-]{43}$/.test(params.codeChallenge)) return back('invalid_request', 'code_challenge must be a base64url SHA-256 digest');
    const resource = params.resource ? trimSlash(params.resource) : base();
    if (!resources().includes(resource)) return back('invalid_target', 'resource must be this service\'s API or its /mcp or /a2a endpoint');
    let scopes: Scope[];
    try {
      scopes = scopesOfParameter(params.scope);
    } catch (error) {
      if (error instanceof OAuthError) return back(error.error, error.description);
      throw error;
    }
    return { client, redirectUri, scopes, resource, codeChallenge: params.codeChallenge };
  }

  function redirectWith(redirectUri: string, values: Record<string, string | null>) {
    const url = new URL(redirectUri);
    for (const [name, value] of Object.entries(values)) if (value !== null) url.searchParams.set(name, value);
    url.searchParams.set('iss', base());
    return url.toString();
  }

  return {
    // RFC 7591, public clients only: the app proves itself with PKCE, not a secret.
    async register(body: Record<string, unknown>) {
      const uris = body.redirect_uris;
      if (!Array.isArray(uris) || uris.length === 0 || uris.length > 10) {
        throw new OAuthError('invalid_redirect_uri', 'redirect_uris must list 1 to 10 URLs');
      }
      for (const uri of uris) {
        const problem = redirectUriProblem(uri);
        if (problem) throw new OAuthError('invalid_redirect_uri', `redirect_uris: ${String(uri).slice(0, 100)} ${problem}`);
      }
      const method = body.token_endpoint_auth_method ?? 'none';
      if (method !== 'none') throw new OAuthError('invalid_client_metadata', 'token_endpoint_auth_method must be none: apps are public clients using PKCE');
      const grantTypes = body.grant_types ?? ['authorization_code', 'refresh_token'];
      if (!Array.isArray(grantTypes) || grantTypes.some((g) => g !== 'authorization_code' && g !== 'refresh_token')) {
        throw new OAuthError('invalid_client_metadata', 'grant_types may be authorization_code and refresh_token');
      }
      // The consent page shows the name: without text-direction marks or control characters.
      const given = typeof body.client_name === 'string' ? displayName(body.client_name).slice(0, 100) : '';
      const name = given || 'Unnamed app';
      const clientUri = typeof body.client_uri === 'string' && /^https?:\/\//.test(body.client_uri) ? body.client_uri.slice(0, 2000) : null;
      const client = await store.insertClient(db, { id: newId('app'), name, redirectUris: uris as string[], clientUri });
      return {
        client_id: client.id,
        client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000),
        client_name: client.name,
        ...(client.clientUri ? { client_uri: client.clientUri } : {}),
        redirect_uris: client.redirectUris,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      };
    },

    // What the consent page shows: the app, where it sends the user back, and the scopes asked for.
    async describe(params: AuthorizationParams) {
      const checked = await check(params);
      if ('redirectTo' in checked) return { redirectTo: checked.redirectTo };
      return {
        clientId: checked.client.id,
        appName: checked.client.name,
        redirectHost: new URL(checked.redirectUri).host,
        scopes: checked.scopes,
      };
    },

    // The user's answer: where the browser goes next (the app's redirect_uri with a code or an error).
    async decide(user: User, params: AuthorizationParams, allow: boolean): Promise<string> {
      const checked = await check(params);
      if ('redirectTo' in checked) return checked.redirectTo;
      if (!allow) return redirectWith(checked.redirectUri, { error: 'access_denied', error_description: 'the user declined', state: params.state });
      const grant = await store.insertGrant(db, { id: newId('grt'), clientId: checked.client.id, userId: user.id, scopes: checked.scopes, resource: checked.resource });
      const code = secret(CODE_PREFIX);
      await store.insertCode(db, {
        hash: sha256Hex(code),
        grantId: grant.id,
        redirectUri: checked.redirectUri,
        codeChallenge: checked.codeChallenge,
        expiresAt: new Date(clock.now().getTime() + config.oauth.codeTtlSeconds * 1000),
      });
      return redirectWith(checked.redirectUri, { code, state: params.state });
    },

    // The token endpoint (RFC 6749 §3.2) for both grants. Every check of the request (client, redirect,
    // verifier, resource, scope) is made before the code or refresh token is spent: a client that sends a
    // wrong value, or another client holding a copy, does not cost the rightful client its grant.
    async token(form: URLSearchParams) {
      const grantType = form.get('grant_type');
      const clientId = form.get('client_id');
      if (!clientId) throw new OAuthError('invalid_client', 'client_id is missing', 401);
      if (grantType === 'authorization_code') {
        const code = form.get('code');
        const verifier = form.get('code_verifier');
        if (!code) throw new OAuthError('invalid_request', 'code is missing');
        if (!verifier) throw new OAuthError('invalid_request', 'code_verifier is missing: PKCE is required');
        const hash = sha256Hex(code);
        const found = await store.peekCode(db, hash);
        if (!found) throw new OAuthError('invalid_grant', 'the code is not valid');
        const replayed = async () => {
          await revokeGrant(found.grant.id);
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
        return issueTokens(used.grant);
      }
      if (grantType === 'refresh_token') {
        const token = form.get('refresh_token');
        if (!token) throw new OAuthError('invalid_request', 'refresh_token is missing');
        const hash = sha256Hex(token);
        const found = await store.peekRefreshToken(db, hash);
        if (!found) throw new OAuthError('invalid_grant', 'the refresh token is not valid');
        const replayed = async () => {
          await revokeGrant(found.grant.id);
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
        return issueTokens(used.grant);
      }
      throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
    },

    // RFC 7009. The client names itself (public clients have no secret, so client_id is their
    // authentication, §2.1): without one, or with an unknown one, the request is refused (401
    // invalid_client). A token issued to another client is answered as an unknown token is (200, §2.2)
    // and left alone, so a client learns nothing about, and can end nothing of, another's tokens. Any
    // token of a grant revokes the grant.
    async revoke(token: string, clientId: string | null) {
      if (!clientId) throw new OAuthError('invalid_client', 'client_id is missing: name the app the token was issued to', 401);
      if (!(await store.clientById(db, clientId.slice(0, 200)))) throw new OAuthError('invalid_client', 'no app is registered with this client_id', 401);
      const grant = await store.grantOfToken(db, sha256Hex(token));
      if (grant && grant.clientId === clientId) await revokeGrant(grant.id);
    },

    // The bearer of an access token used on `path`: its user, its grant (the credential subscriptions
    // remember) and scopes. A token is good only at the resource it was issued for (RFC 8707; the MCP
    // authorization spec's audience check): one for /a2a does not open /mcp or the API, and so on.
    async userForAccessToken(token: string, path: string): Promise<{ user: User; grantId: string; scopes: Scope[]; expiresAt: Date } | { wrongResource: string } | null> {
      const found = await store.accessTokenWithUser(db, sha256Hex(token));
      const now = clock.now();
      if (!found || found.grant.revokedAt || found.expiresAt <= now) return null;
      if (audienceOf(found.grant.resource) !== resourceOfPath(path)) return { wrongResource: found.grant.resource };
      await store.touchGrant(db, found.grant.id, now, LAST_USED_RESOLUTION_MS);
      return { user: found.user, grantId: found.grant.id, scopes: found.grant.scopes.filter(isScope), expiresAt: found.expiresAt };
    },

    connectedApps: (userId: string) => store.connectedApps(db, userId),

    // Ends every grant of the user to the app: its tokens stop working and its streams close now.
    async disconnect(userId: string, clientId: string): Promise<boolean> {
      const revoked = await store.revokeGrants(db, { userId, clientId }, clock.now());
      await announceRevoked(revoked);
      return revoked.length > 0;
    },

    metadata() {
      const issuer = base();
      return {
        issuer,
        authorization_endpoint: `${issuer}/oauth/authorize`,
        token_endpoint: `${issuer}/oauth/token`,
        registration_endpoint: `${issuer}/oauth/register`,
        revocation_endpoint: `${issuer}/oauth/revoke`,
        scopes_supported: [...allScopes],
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
        revocation_endpoint_auth_methods_supported: ['none'],
        authorization_response_iss_parameter_supported: true,
      };
    },

    // RFC 9728 for the API as a whole, or for one of its endpoints (/mcp).
    resourceMetadata(path: string) {
      return {
        resource: `${base()}${path}`,
        authorization_servers: [base()],
        scopes_supported: [...allScopes],
        bearer_methods_supported: ['header'],
        resource_name: 'Task marketplace',
      };
    },

    resourceMetadataUrl: (path = '') => `${base()}/.well-known/oauth-protected-resource${path}`,

    // Part of the daily prune job: codes and tokens expired a day ago, and apps a day old nobody connected.
    async prune(now = clock.now()): Promise<void> {
      const removed = await store.pruneExpired(db, new Date(now.getTime() - PRUNE_AFTER_MS));
      if (removed.codes + removed.tokens + removed.apps > 0) deps.logger.info(removed, 'pruned expired OAuth codes, tokens and unused apps');
    },
  };
}

export type OAuthService = ReturnType<typeof oauthService>;
