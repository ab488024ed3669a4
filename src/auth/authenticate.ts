// Turns an Authorization header into the acting user. A missing header is anonymous; a header that does
// not verify is remembered as an error, reported as 401 only where authentication is needed.
import type { AccountService, Viewer } from '../services/accounts.js';
import { ACCESS_TOKEN_PREFIX, type OAuthService } from '../services/oauth.js';
import { looksLikeJwt, type JwtVerifier } from './jwt.js';
import { allScopes, type Scope } from './scopes.js';

export interface Authentication {
  viewer: Viewer | null;
  authError: string | null;
  // What rate limiting counts against: the user, else null (the caller's address is used).
  principal: string | null;
  // What the credential may do: every scope for an anonymous caller (fields needing a user say so first).
  scopes: readonly Scope[];
  // The credential, for what outlives the request (subscriptions): the API key or app grant used (its
  // revocation ends them), and when the credential expires.
  credentialId?: string;
  expiresAt?: Date;
}

export async function authenticate(
  header: string | null | undefined,
  deps: { accounts: AccountService; oauth: OAuthService; verifyJwt: JwtVerifier | null },
): Promise<Authentication> {
  if (!header) return { viewer: null, authError: null, principal: null, scopes: allScopes };
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) return { viewer: null, authError: 'the Authorization header must be "Bearer <token>"', principal: null, scopes: allScopes };
  const token = match[1];
  if (looksLikeJwt(token)) {
    if (!deps.verifyJwt) return { viewer: null, authError: 'access tokens are not enabled on this server', principal: null, scopes: allScopes };
    let claims;
    try {
      claims = await deps.verifyJwt(token);
    } catch {
      return { viewer: null, authError: 'the access token is invalid or expired', principal: null, scopes: allScopes };
    }
    // Past verification the token is good: a failure finding its user (409 for an email held by another
    // account, 503 for a database outage) is answered as what it is, not as a bad token.
    const viewer = await deps.accounts.userForSubject({
      sub: claims.sub,
      email: typeof claims.email === 'string' ? claims.email : undefined,
      emailVerified: claims.email_verified === true,
      name: typeof claims.name === 'string' ? claims.name : undefined,
    });
    const expiresAt = typeof claims.exp === 'number' ? new Date(claims.exp * 1000) : undefined;
    return { viewer, authError: null, principal: viewer.id, scopes: allScopes, ...(expiresAt ? { expiresAt } : {}) };
  }
  if (token.startsWith(ACCESS_TOKEN_PREFIX)) {
    const bearer = await deps.oauth.userForAccessToken(token);
    if (!bearer) return { viewer: null, authError: 'the access token is invalid, expired or revoked', principal: null, scopes: allScopes };
    return { viewer: bearer.user, authError: null, principal: bearer.user.id, scopes: bearer.scopes, credentialId: bearer.grantId, expiresAt: bearer.expiresAt };
  }
  const found = await deps.accounts.userForApiKey(token);
  if (!found) return { viewer: null, authError: 'the API key is invalid, expired or revoked', principal: null, scopes: allScopes };
  return {
    viewer: found.user,
    authError: null,
    principal: found.user.id,
    scopes: found.scopes,
    credentialId: found.apiKeyId,
    ...(found.expiresAt ? { expiresAt: found.expiresAt } : {}),
  };
}
