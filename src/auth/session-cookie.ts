// The browser's credential: an HttpOnly cookie holding a session's secret (never readable by the page).
// A request that carries no Authorization header but this cookie is authenticated by the session, through
// the same pipeline as keys (services/accounts/authenticate.ts), which sees it as `Session <secret>`.
import type { IncomingHttpHeaders } from 'node:http';

export const SESSION_COOKIE = 'tm_session';
export const SESSION_SCHEME = 'Session';

// Where the service is served over https the cookie is `__Host-tm_session`: browsers keep a cookie of
// that name only if it is Secure, has Path=/ and no Domain, so a page on a sibling subdomain cannot plant
// or overwrite one (cookie tossing). The plain name is then not read at all. Over http (development on
// http://localhost) the prefix cannot be used (it needs Secure) and the cookie is `tm_session`.
export const sessionCookieName = (baseUrl: string) => (baseUrl.startsWith('https:') ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE);

// The value of one cookie of a Cookie header, or null.
export function cookieValue(header: string | undefined | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{1,200}$/.test(value) ? value : null;
    }
  }
  return null;
}

type HeaderGetter = (name: string) => string | null | undefined;

const getterOf = (headers: IncomingHttpHeaders | HeaderGetter): HeaderGetter =>
  typeof headers === 'function' ? headers : (name) => {
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
  };

// The credential the request authenticates with: the Authorization header when sent, else the session
// cookie as `Session <secret>`. An explicit header always wins, so scripts are never taken for the browser.
// `cookieName`: sessionCookieName of the base URL.
export function credentialOf(headers: IncomingHttpHeaders | HeaderGetter, cookieName: string): string | undefined {
  const get = getterOf(headers);
  const authorization = get('authorization');
  if (authorization) return authorization;
  const secret = cookieValue(get('cookie'), cookieName);
  return secret ? `${SESSION_SCHEME} ${secret}` : undefined;
}

// The request is authenticated by the cookie (not by a header a page on another site cannot set).
export function usesSessionCookie(headers: IncomingHttpHeaders, cookieName: string): boolean {
  return !headers.authorization && cookieValue(headers.cookie, cookieName) !== null;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

// A request a page of another site made the browser send (cross-site request forgery). Browsers send
// Sec-Fetch-Site on every request; older ones at least Origin on a POST. The request's own Host and the
// configured base URL count as this site. Without either header (curl, a script) it is not a browser's.
export function fromAnotherOrigin(headers: IncomingHttpHeaders, baseUrl: string): boolean {
  const site = headers['sec-fetch-site'];
  if (typeof site === 'string') return site !== 'same-origin' && site !== 'none';
  const origin = headers.origin;
  if (typeof origin !== 'string') return false;
  const own = new Set([new URL(baseUrl).origin]);
  if (headers.host) {
    own.add(`http://${headers.host}`);
    own.add(`https://${headers.host}`);
  }
  return !own.has(origin);
}

// A state-changing request authenticated by the cookie, sent from another origin: refused with 403.
export function isForgedCookieRequest(method: string | undefined, headers: IncomingHttpHeaders, baseUrl: string): boolean {
  return !SAFE_METHODS.has(method ?? 'GET') && usesSessionCookie(headers, sessionCookieName(baseUrl)) && fromAnotherOrigin(headers, baseUrl);
}

// The Set-Cookie of a new session for the service at `baseUrl` (Secure and prefixed over https).
export function sessionCookie(secret: string, opts: { maxAgeMs: number; baseUrl: string }): string {
  const secure = opts.baseUrl.startsWith('https:');
  return [`${sessionCookieName(opts.baseUrl)}=${secret}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${Math.floor(opts.maxAgeMs / 1000)}`, ...(secure ? ['Secure'] : [])].join('; ');
}

export function clearedSessionCookie(baseUrl: string): string {
  const secure = baseUrl.startsWith('https:');
  return [`${sessionCookieName(baseUrl)}=`, 'Path=/', 'HttpOnly', 'SameSite=Lax', 'Max-Age=0', ...(secure ? ['Secure'] : [])].join('; ');
}
