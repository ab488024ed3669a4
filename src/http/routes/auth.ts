// The REST routes of signing in (/v1/auth/*) and of the account's sessions and passkeys
// (/v1/account/sessions, /v1/account/passkeys). They set and clear the session cookie, which the
// GraphQL-backed route table has no place for, so they are routes of their own, admitted like /v1.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Authentication } from '../../services/accounts/authenticate.js';
import type { HttpMethod, HttpRoute, OpenApiOperation } from '../route.js';
import type { Admission } from '../admission.js';
import type { Services } from '../../services/index.js';
import { AppError, forbidden, insufficientScope, invalid, unauthenticated } from '../../errors.js';
import { readJsonObject } from '../body.js';
import { sendJson } from '../respond.js';
import { addressKey } from '../rate-limit.js';
import { overBudget } from '../admission.js';
import { allScopes } from '../../auth/scopes.js';
import { clearedSessionCookie, fromAnotherOrigin, sessionCookie } from '../../auth/session-cookie.js';
import type { Viewer } from '../../services/accounts/index.js';
import { currentRequest } from '../../request-context.js';
import { ACCESS_TOKEN_PREFIX } from '../../services/oauth/index.js';
import { authOperations as ops } from './auth-operations.js';

const BODY_LIMIT = 64 * 1024;

interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  params: Record<string, string>;
  auth: Authentication | undefined;
  body: Record<string, unknown>;
}

export function authRoutes(opts: {
  services: Services;
  admission: Admission;
  authenticateHeader: (authorization: string) => Promise<Authentication>;
  baseUrl: () => string;
}): HttpRoute[] {
  const { services, admission } = opts;
  const userAgent = (req: IncomingMessage) => req.headers['user-agent'];

  // Answers a sign-in: the new session's cookie, and the user. A session the browser held before is
  // ended: a sign-in never keeps an old session id (no fixation).
  async function signedIn(call: Call, status: number, opened: { secret: string; userId: string }, extra: Record<string, unknown> = {}) {
    const previous = call.auth?.credential;
    if (previous?.kind === 'session' && previous.id && call.auth?.viewer) await services.sessions.end(call.auth.viewer.id, previous.id);
    const user = await services.accounts.profile(opened.userId);
    sendJson(call.res, status, { data: { user, ...extra } }, { 'set-cookie': sessionCookie(opened.secret, { maxAgeMs: services.sessions.maxAgeMs, baseUrl: opts.baseUrl() }), 'cache-control': 'no-store' });
  }

  // One attempt of the address's failed sign-in budget (the one wrong API keys use): guessing links or keys is throttled.
  async function countAttempt(req: IncomingMessage) {
    const decision = await admission.count({ viewer: null, authError: 'sign-in attempt', principal: null, scopes: [] }, req);
    if (decision && !decision.allowed) throw new AppError('RATE_LIMITED', overBudget(decision.retryAfterSeconds), { details: { retryAfterSeconds: decision.retryAfterSeconds } });
  }

  function accountViewer(auth: Authentication | undefined): Viewer & { sessionId: string | null } {
    if (!auth?.viewer) throw unauthenticated('sign in first');
    if (!auth.scopes.includes('account')) throw insufficientScope('account');
    return { ...auth.viewer, sessionId: auth.credential?.kind === 'session' ? auth.credential.id : null };
  }

  const routes: HttpRoute[] = [];
  // Signing in takes no credential (one sent is still checked); the account's routes take the caller's.
  const on = (method: HttpMethod, path: string, openapi: OpenApiOperation, run: (call: Call) => Promise<void>) => {
    routes.push({
      method,
      path,
      credential: path.startsWith('/v1/auth/') ? 'public' : 'caller',
      admission: 'caller',
      openapi,
      handle: async ({ req, res, params, authentication: auth }) => {
        // Signing in is for this site's own pages: a page elsewhere cannot sign the browser in to an
        // account of its choosing (login CSRF), cookie or none.
        if (method === 'POST' && path.startsWith('/v1/auth/') && fromAnotherOrigin(req.headers, opts.baseUrl())) {
          throw forbidden('sign-in requests must come from this site\'s own pages');
        }
        if (auth?.authError) throw unauthenticated(auth.authError);
        const context = currentRequest();
        if (context && auth?.viewer) context.principalId = auth.viewer.id;
        // An id is plain text of modest length: a NUL would fail in the database, not as a missing row.
        if (Object.values(params).some((p) => p.length > 200 || [...p].some((c) => c.charCodeAt(0) < 0x20))) {
          throw invalid('id', 'the id is not valid: no control characters, at most 200 characters');
        }
        await run({ req, res, params, auth, body: (await readJsonObject(req, BODY_LIMIT)) ?? {} });
      },
    });
  };

  on('GET', '/v1/auth/options', ops.options, async ({ res }) => {
    sendJson(res, 200, { data: { signup: services.deps.config.accounts.signup, emailLinks: services.emailLinks.delivery } });
  });
  on('POST', '/v1/auth/sign-up/options', ops.signUpOptions, async ({ res, body }) => {
    sendJson(res, 200, { data: await services.passkeys.signUpOptions(body) }, { 'cache-control': 'no-store' });
  });
  on('POST', '/v1/auth/sign-up', ops.signUp, async (call) => {
    let opened;
    try {
      opened = await services.passkeys.signUp(call.body.credential, userAgent(call.req));
    } catch (error) {
      // A taken address is told only after a whole passkey ceremony, and each one costs a point of the
      // address's failed sign-in budget: finding out which addresses have accounts stays slow.
      if (error instanceof AppError && error.code === 'CONFLICT') await countAttempt(call.req);
      throw error;
    }
    await signedIn(call, 201, opened);
  });
  on('POST', '/v1/auth/passkey/options', ops.passkeyOptions, async ({ res }) => {
    sendJson(res, 200, { data: await services.passkeys.signInOptions() }, { 'cache-control': 'no-store' });
  });
  on('POST', '/v1/auth/passkey', ops.passkey, async (call) => {
    await signedIn(call, 200, await services.passkeys.signIn(call.body.credential, userAgent(call.req)));
  });
  on('POST', '/v1/auth/email-link', ops.emailLink, async ({ req, res, body }) => {
    await services.emailLinks.request(body.email, addressKey(admission.address(req)));
    sendJson(res, 202, { data: { delivery: services.emailLinks.delivery, message: 'If the address can sign in here, a link is on its way; it works once, within 15 minutes.' } });
  });
  on('POST', '/v1/auth/email-link/describe', ops.emailLinkDescribe, async (call) => {
    await countAttempt(call.req);
    sendJson(call.res, 200, { data: await services.emailLinks.describe(call.body.token) }, { 'cache-control': 'no-store' });
  });
  on('POST', '/v1/auth/email-link/sign-in', ops.emailLinkSignIn, async (call) => {
    await countAttempt(call.req);
    const signedInAs = call.auth?.credential?.kind === 'session' ? (call.auth.viewer?.id ?? null) : null;
    const opened = await services.emailLinks.signIn(call.body.token, userAgent(call.req), signedInAs);
    await signedIn(call, 200, opened, { created: opened.created });
  });
  // A key pasted on the sign-in page becomes a session; the page never keeps the key.
  on('POST', '/v1/auth/api-key-session', ops.apiKeySession, async (call) => {
    const key = call.body.apiKey;
    if (typeof key !== 'string' || key.trim() === '' || key.length > 4096) throw invalid('apiKey', 'apiKey is required: an API key (or an access token of the identity provider)');
    // An app's access token is bound to its resource and its app, never turned into a dashboard session.
    if (key.trim().startsWith(ACCESS_TOKEN_PREFIX)) throw forbidden('an app\'s access token cannot be exchanged for a session; paste an API key');
    const found = await opts.authenticateHeader(`Bearer ${key.trim()}`);
    if (!found.viewer) {
      await countAttempt(call.req);
      throw unauthenticated(found.authError ?? 'the API key is invalid or revoked');
    }
    // A session may do everything: only a credential that may too is exchanged for one.
    if (found.scopes && allScopes.some((scope) => !found.scopes!.includes(scope))) {
      throw forbidden('this key has limited scopes; a dashboard session needs a key with every scope');
    }
    // The session lives no longer than the key or token it was made from, and a revoked key ends it.
    const apiKeyId = found.credential?.kind === 'apiKey' ? found.credential.id : null;
    const opened = await services.sessions.open(found.viewer.id, 'api_key', userAgent(call.req), undefined, { apiKeyId, expiresAt: found.expiresAt ?? null });
    await signedIn(call, 200, { ...opened, userId: found.viewer.id });
  });
  on('POST', '/v1/auth/sign-out', ops.signOut, async ({ res, auth }) => {
    if (auth?.viewer && auth.credential?.kind === 'session' && auth.credential.id) await services.sessions.end(auth.viewer.id, auth.credential.id);
    res.writeHead(204, { 'set-cookie': clearedSessionCookie(opts.baseUrl()) }).end();
  });

  on('GET', '/v1/account/sessions', ops.sessions, async ({ res, auth }) => {
    const viewer = accountViewer(auth);
    sendJson(res, 200, { data: await services.sessions.list(viewer.id, viewer.sessionId) });
  });
  on('DELETE', '/v1/account/sessions', ops.revokeSessions, async ({ res, auth }) => {
    const viewer = accountViewer(auth);
    const revoked = await services.sessions.revokeAll(viewer.id);
    sendJson(res, 200, { data: { revoked } }, viewer.sessionId ? { 'set-cookie': clearedSessionCookie(opts.baseUrl()) } : {});
  });
  on('DELETE', '/v1/account/sessions/:id', ops.revokeSession, async ({ res, auth, params }) => {
    const viewer = accountViewer(auth);
    await services.sessions.revoke(viewer.id, params.id!);
    res.writeHead(204, params[0] === viewer.sessionId ? { 'set-cookie': clearedSessionCookie(opts.baseUrl()) } : {}).end();
  });
  on('GET', '/v1/account/passkeys', ops.passkeys, async ({ res, auth }) => {
    sendJson(res, 200, { data: await services.passkeys.list(accountViewer(auth).id) });
  });
  on('POST', '/v1/account/passkeys/options', ops.addPasskeyOptions, async ({ res, auth }) => {
    sendJson(res, 200, { data: await services.passkeys.addOptions(accountViewer(auth)) }, { 'cache-control': 'no-store' });
  });
  on('POST', '/v1/account/passkeys', ops.addPasskey, async ({ res, auth, body }) => {
    sendJson(res, 201, { data: await services.passkeys.add(accountViewer(auth).id, body.credential, body.name) });
  });
  on('DELETE', '/v1/account/passkeys/:id', ops.removePasskey, async ({ res, auth, params }) => {
    await services.passkeys.remove(accountViewer(auth).id, params.id!);
    res.writeHead(204).end();
  });

  return routes;
}
