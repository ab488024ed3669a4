// Browser sessions: opened at every sign-in with a new random secret (so a secret planted before sign-in
// is never promoted: no fixation), kept as a SHA-256, ended by sign-out, by the user from another device,
// after SESSION_IDLE_TIMEOUT_MINUTES without a request, or SESSION_MAX_AGE_DAYS after sign-in.
import { randomBytes } from 'node:crypto';
import type { SqlDb } from '../../db/kysely.js';
import { sha256Hex } from '../../crypto/tokens.js';
import { newId } from '../../ids.js';
import { notFound } from '../../errors.js';
import * as store from '../../stores/session-store.js';
import { announceEnded, type AccountContext, type Viewer } from './context.js';

export type SignInMethod = 'passkey' | 'email_link' | 'api_key' | 'sign_up';

export interface SessionView {
  id: string;
  method: string;
  userAgent: string | null;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  current: boolean;
}

// The stored lastSeenAt lags the last use by up to the resolution (the throttle of userForSession), so a
// session is idle only once even its latest possible use is older than the timeout: one in use never
// ends, and an idle one ends at most that much late.
const idleSince = (ctx: AccountContext, lastSeenAt: Date, now: Date) => now.getTime() - lastSeenAt.getTime() > ctx.sessionTimes.idleMs + ctx.sessionTimes.resolutionMs;

const announce = (ctx: AccountContext, ids: string[]) => announceEnded(ctx, ids, 'an ended session');

// A new session for the user; the secret goes into the cookie and nowhere else. `db`: the transaction
// of the sign-in that opens it (an account created at sign-up), else the database.
// `from`: the credential a session made from one (a pasted API key or identity provider token) is
// bound to: it ends when that credential expires, and with the key when the key is revoked.
export async function openSession(
  ctx: AccountContext,
  userId: string,
  method: SignInMethod,
  userAgent: string | undefined,
  db: SqlDb = ctx.deps.sql,
  from: { apiKeyId?: string | null; expiresAt?: Date | null } = {},
): Promise<{ secret: string; id: string; expiresAt: Date }> {
  const secret = randomBytes(32).toString('base64url');
  const now = ctx.deps.clock.now();
  const id = newId('ses');
  const lifetimeEnds = now.getTime() + ctx.sessionTimes.maxAgeMs;
  const expiresAt = new Date(from.expiresAt ? Math.min(lifetimeEnds, from.expiresAt.getTime()) : lifetimeEnds);
  await store.insertSession(db, {
    id,
    userId,
    hash: sha256Hex(secret),
    method,
    userAgent: userAgent ? userAgent.slice(0, 300) : null,
    createdAt: now,
    lastSeenAt: now,
    expiresAt,
    apiKeyId: from.apiKeyId ?? null,
  });
  return { secret, id, expiresAt };
}

// The user of a live session, or null when it is unknown, revoked, idle too long or too old.
export async function userForSession(ctx: AccountContext, secret: string): Promise<{ user: Viewer; sessionId: string; expiresAt: Date } | null> {
  const found = await store.sessionWithUser(ctx.deps.sql, sha256Hex(secret));
  if (!found) return null;
  const { session, user } = found;
  const now = ctx.deps.clock.now();
  if (session.revokedAt || session.expiresAt <= now || idleSince(ctx, session.lastSeenAt, now)) return null;
  if (now.getTime() - session.lastSeenAt.getTime() > ctx.sessionTimes.resolutionMs) await store.touchSession(ctx.deps.sql, session.id, now);
  return { user, sessionId: session.id, expiresAt: session.expiresAt };
}

export async function listSessions(ctx: AccountContext, userId: string, currentId: string | null): Promise<SessionView[]> {
  const now = ctx.deps.clock.now();
  const rows = await store.openSessionsOf(ctx.deps.sql, userId, now);
  return rows
    .filter((s) => !idleSince(ctx, s.lastSeenAt, now))
    .map((s) => ({ id: s.id, method: s.method, userAgent: s.userAgent, createdAt: s.createdAt, lastSeenAt: s.lastSeenAt, expiresAt: s.expiresAt, current: s.id === currentId }));
}

export async function revokeSession(ctx: AccountContext, userId: string, id: string): Promise<void> {
  if (!(await store.revokeSession(ctx.deps.sql, userId, id, ctx.deps.clock.now()))) throw notFound('session');
  await announce(ctx, [id]);
}

// Sign-out: ends the session if it is still open; harmless otherwise.
export async function endSession(ctx: AccountContext, userId: string, id: string): Promise<void> {
  if (await store.revokeSession(ctx.deps.sql, userId, id, ctx.deps.clock.now())) await announce(ctx, [id]);
}

// Sessions that ended more than a day ago (revoked or past their maximum age) are of no more use.
export const pruneSessions = (ctx: AccountContext) => store.pruneSessions(ctx.deps.sql, new Date(ctx.deps.clock.now().getTime() - 86_400_000));

// The key they were made from was revoked (in `tx`, the revocation's transaction): its sessions end
// with it. The ids ended, to announce once that transaction committed.
export const endSessionsMadeFromKey = (ctx: AccountContext, tx: SqlDb, apiKeyId: string) => store.revokeSessionsMadeFromKey(tx, apiKeyId, ctx.deps.clock.now());

// "Sign out everywhere": every session of the user, this one included.
export async function revokeAllSessions(ctx: AccountContext, userId: string): Promise<number> {
  const ids = await store.revokeSessionsOf(ctx.deps.sql, userId, ctx.deps.clock.now());
  await announce(ctx, ids);
  return ids.length;
}
