// Apps (MCP hosts and others) register themselves (RFC 7591), as public clients only: the app proves
// itself with PKCE, not a secret.
import { newId } from '../../ids.js';
import * as store from '../../stores/oauth-store.js';
import { displayName } from '../display-name.js';
import { OAuthError, type OAuthContext } from './context.js';

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

export async function register(ctx: OAuthContext, body: Record<string, unknown>) {
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
  const client = await store.insertClient(ctx.deps.sql, { id: newId('app'), name, redirectUris: uris as string[], clientUri });
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
}
