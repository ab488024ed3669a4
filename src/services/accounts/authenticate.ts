// Turns an Authorization header into the acting user. A missing header is anonymous; a header that does
// not verify is remembered as an error, reported as 401 only where authentication is needed. The browser's
// session cookie arrives here as `Session <secret>` (auth/session-cookie.ts credentialOf).
import { looksLikeJwt, type JwtVerifier } from '../../auth/jwt.js';
import { allScopes, type Scope } from '../../auth/scopes.js';
import { SESSION_SCHEME } from '../../auth/session-cookie.js';
import { ACCESS_TOKEN_PREFIX, type OAuthService } from '../oauth/index.js';
import type { Viewer } from './context.js';
import type { AccountService, SessionService } from './index.js';

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

// The one way a credential that found its user becomes the request's viewer.
function signedIn(viewer: Viewer, credential: NonNullable<Authentication['credential']>, scopes: readonly Scope[], expiresAt: Date | null | undefined): Authentication {
  return { viewer, authError: null, principal: viewer.id, scopes, credential, ...(expiresAt ? { expiresAt } : {}) };
}

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
    const found = await deps.sessions.userForSession(session[1]);
    if (!found) return anonymous();
    return signedIn(found.user, { kind: 'session', id: found.sessionId }, allScopes, found.expiresAt);
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
    return signedIn(viewer, { kind: 'accessToken', id: null }, allScopes, expiresAt);
  }
  if (token.startsWith(ACCESS_TOKEN_PREFIX)) {
    const bearer = await deps.oauth.userForAccessToken(token, path);
    if (!bearer) return anonymous('the access token is invalid, expired or revoked');
    if ('wrongResource' in bearer) return anonymous(`the access token was issued for ${bearer.wrongResource}, not for this endpoint; ask for a token for this resource`);
    return signedIn(bearer.user, { kind: 'accessToken', id: bearer.grantId }, bearer.scopes, bearer.expiresAt);
  }
  const found = await deps.accounts.userForApiKey(token);
  if (!found) return anonymous('the API key is invalid, expired or revoked');
  return signedIn(found.user, { kind: 'apiKey', id: found.apiKeyId }, found.scopes, found.expiresAt);
}
