// The service as an OAuth 2.1 authorization server for its own API: apps register themselves, a signed-in
// user consents on the dashboard, the app trades the code for a short-lived access token and a refresh
// token. The rules are plain functions of an OAuthContext in this folder's modules; this service binds
// them to one context, so callers say `services.oauth.token(form)`.
import type { Deps } from '../../deps.js';
import { decide, describe } from './authorize.js';
import { register } from './clients.js';
import type { OAuthContext } from './context.js';
import { connectedApps, disconnect, prune } from './grants.js';
import { metadata, resourceMetadata, resourceMetadataUrl } from './metadata.js';
import { revoke, token, userForAccessToken } from './tokens.js';

export { ACCESS_TOKEN_PREFIX, OAuthError } from './context.js';
export type { AuthorizationParams } from './authorize.js';

export function oauthService(deps: Deps) {
  const ctx: OAuthContext = { deps };
  const bound = <A extends unknown[], R>(rule: (ctx: OAuthContext, ...args: A) => R) => (...args: A): R => rule(ctx, ...args);
  return {
    register: bound(register),
    describe: bound(describe),
    decide: bound(decide),
    token: bound(token),
    revoke: bound(revoke),
    userForAccessToken: bound(userForAccessToken),
    connectedApps: bound(connectedApps),
    disconnect: bound(disconnect),
    metadata: bound(metadata),
    resourceMetadata: bound(resourceMetadata),
    resourceMetadataUrl: bound(resourceMetadataUrl),
    prune: bound(prune),
  };
}

export type OAuthService = ReturnType<typeof oauthService>;
