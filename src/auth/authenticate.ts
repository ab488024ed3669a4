// Turns an Authorization header into the acting user. A missing header is anonymous; a header that does
// not verify is remembered as an error, reported as 401 only where authentication is needed. The browser's
// session cookie arrives here as `Session <secret>` (auth/session-cookie.ts credentialOf).
import type { AccountService, Viewer } from '../services/accounts.js';
import type { SessionService } from '../accounts/sessions.js';
import { ACCESS_TOKEN_PREFIX, type OAuthService } from '../services/oauth.js';
import { looksLikeJwt, type JwtVerifier } from './jwt.js';
import { allScopes, type Scope } from './scopes.js';
import { SESSION_SCHEME } from './session-cookie.js';

// Which credential authenticated the request, and its id where it has one (what revocation names: an
// API key's id, a session's id, an app grant's id).
export type CredentialKind = 'apiKey' | 'session' | 'accessToken';

export interface Authentication {
  viewer: Viewer | null;
  authError: string | null;
  // What rate limiting counts against: the user, else null (the caller's address is used).
  principal: string | null;
  // What the credential may do (auth/scopes.ts): all for an anonymous caller (fields needing a user say so first).
  scopes: readonly Scope[];
  // The credential, for what outlives the request (subscriptions): its revocation ends them; and when it expires.
  credential?: { kind: CredentialKind; id: string | null };
  expiresAt?: Date;
}

const SESSION_HEADER = new RegExp(`^${SESSION_SCHEME} (\\S+)$`);

const anonymous = (authError: string | null = null): Authentication => ({ viewer: null, authError, principal: null, scopes: allScopes });

// `path`: where the credential is used; an app's access token is good only at the resource it was issued for.
export async function authenticate(
  header: string | null | undefined,
  deps: { accounts: AccountService; oauth: OAuthService; verifyJwt: JwtVerifier | null; sessions?: SessionService },
  path: string,
): Promise<Authentication> {
  if (!header) return anonymous();
  const session = SESSION_HEADER.exec(header);
  if (session?.[1] && deps.sessions) {
    // A session that ended leaves the browser signed out, not in error: public pages keep working and
    // pages that need a user answer 401 as for anyone signed out.
    const found = await deps.sessions.authenticate(session[1]);
    if (!found) return anonymous();
    return {
      viewer: found.user,
      authError: null,
      principal: found.user.id,
      expiresAt: found.expiresAt,
      credential: { kind: 'session', id: found.sessionId },
      scopes: allScopes,
    };
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) return anonymous('the Authorization header must be "Bearer <token>"');
  const token = match[1];
  if (looksLikeJwt(token)) {
    if (!deps.verifyJwt) return anonymous('access tokens are not enabled on this server');
    let claims;
    try {
      claims = await deps.verifyJwt(token);
    } catch {
      return anonymous('the access token is invalid or expired');
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
    return { viewer, authError: null, principal: viewer.id, ...(expiresAt ? { expiresAt } : {}), credential: { kind: 'accessToken', id: null }, scopes: allScopes };
  }
  if (token.startsWith(ACCESS_TOKEN_PREFIX)) {
    const bearer = await deps.oauth.userForAccessToken(token, path);
    if (!bearer) return anonymous('the access token is invalid, expired or revoked');
    if ('wrongResource' in bearer) return anonymous(`the access token was issued for ${bearer.wrongResource}, not for this endpoint; ask for a token for this resource`);
    return {
      viewer: bearer.user,
      authError: null,
      principal: bearer.user.id,
      scopes: bearer.scopes,
      credential: { kind: 'accessToken', id: bearer.grantId },
      expiresAt: bearer.expiresAt,
    };
  }
  const found = await deps.accounts.userForApiKey(token);
  if (!found) return anonymous('the API key is invalid, expired or revoked');
  return {
    viewer: found.user,
    authError: null,
    principal: found.user.id,
    scopes: found.scopes,
    credential: { kind: 'apiKey', id: found.apiKeyId },
    ...(found.expiresAt ? { expiresAt: found.expiresAt } : {}),
  };
}
