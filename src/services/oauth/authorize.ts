// The authorization request: what the consent page shows, and the user's answer, a code for the app
// (PKCE S256 only, exact redirect_uri, RFC 8707 resource).
import { sha256Hex } from '../../crypto/tokens.js';
import { newId } from '../../ids.js';
import type { User } from '../../generated/prisma/client.js';
import { allScopes, isScope, type Scope } from '../../auth/scopes.js';
import * as store from '../../stores/oauth-store.js';
import { base, CODE_PREFIX, OAuthError, resources, secret, trimSlash, type OAuthContext } from './context.js';

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

export function scopesOfParameter(value: string | null | undefined): Scope[] {
  if (!value || !value.trim()) return [...allScopes];
  const given = value.trim().split(/\s+/);
  const unknown = given.find((s) => !isScope(s));
  if (unknown !== undefined) throw new OAuthError('invalid_scope', `"${unknown.slice(0, 50)}" is not a scope; scopes are ${allScopes.join(' ')}`);
  return [...new Set(given as Scope[])];
}

function redirectWith(ctx: OAuthContext, redirectUri: string, values: Record<string, string | null>) {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(values)) if (value !== null) url.searchParams.set(name, value);
  url.searchParams.set('iss', base(ctx));
  return url.toString();
}

// The checks of an authorization request. A bad client or redirect_uri is shown to the user and never
// redirected to (an open redirect); the rest go back to the app as an error on its redirect_uri.
async function check(ctx: OAuthContext, params: AuthorizationParams) {
  if (!params.clientId) throw new OAuthError('invalid_request', 'client_id is missing');
  const client = await store.clientById(ctx.deps.sql, params.clientId.slice(0, 200));
  if (!client) throw new OAuthError('invalid_client', 'no app is registered with this client_id');
  if (!params.redirectUri || !client.redirectUris.includes(params.redirectUri)) {
    throw new OAuthError('invalid_request', 'redirect_uri is not one the app registered');
  }
  const redirectUri = params.redirectUri;
  const back = (error: string, description: string) => ({ redirectTo: redirectWith(ctx, redirectUri, { error, error_description: description, state: params.state }) });
  if (params.responseType !== 'code') return back('unsupported_response_type', 'response_type must be code');
  if (!params.codeChallenge) return back('invalid_request', 'code_challenge is missing: PKCE is required');
  if (params.codeChallengeMethod !== 'S256') return back('invalid_request', 'code_challenge_method must be S256');
  if (!/^[A-Za-z0-9_-]{43}$/.test(params.codeChallenge)) return back('invalid_request', 'code_challenge must be a base64url SHA-256 digest');
  const resource = params.resource ? trimSlash(params.resource) : base(ctx);
  if (!resources(ctx).includes(resource)) return back('invalid_target', 'resource must be this service\'s API or its /mcp or /a2a endpoint');
  let scopes: Scope[];
  try {
    scopes = scopesOfParameter(params.scope);
  } catch (error) {
    if (error instanceof OAuthError) return back(error.error, error.description);
    throw error;
  }
  return { client, redirectUri, scopes, resource, codeChallenge: params.codeChallenge };
}

// What the consent page shows: the app, where it sends the user back, and the scopes asked for.
export async function describe(ctx: OAuthContext, params: AuthorizationParams) {
  const checked = await check(ctx, params);
  if ('redirectTo' in checked) return { redirectTo: checked.redirectTo };
  return {
    clientId: checked.client.id,
    appName: checked.client.name,
    redirectHost: new URL(checked.redirectUri).host,
    scopes: checked.scopes,
  };
}

// The user's answer: where the browser goes next (the app's redirect_uri with a code or an error).
export async function decide(ctx: OAuthContext, user: User, params: AuthorizationParams, allow: boolean): Promise<string> {
  const { sql: db, clock, config } = ctx.deps;
  const checked = await check(ctx, params);
  if ('redirectTo' in checked) return checked.redirectTo;
  if (!allow) return redirectWith(ctx, checked.redirectUri, { error: 'access_denied', error_description: 'the user declined', state: params.state });
  const grant = await store.insertGrant(db, { id: newId('grt'), clientId: checked.client.id, userId: user.id, scopes: checked.scopes, resource: checked.resource });
  const code = secret(CODE_PREFIX);
  await store.insertCode(db, {
    hash: sha256Hex(code),
    grantId: grant.id,
    redirectUri: checked.redirectUri,
    codeChallenge: checked.codeChallenge,
    expiresAt: new Date(clock.now().getTime() + config.oauth.codeTtlSeconds * 1000),
  });
  return redirectWith(ctx, checked.redirectUri, { code, state: params.state });
}
