// Browser sessions: opened at every sign-in with a new random secret (so a secret planted before sign-in
// is never promoted: no fixation), kept as a SHA-256, ended by sign-out, by the user from another device,
// after SESSION_IDLE_TIMEOUT_MINUTES without a request, or SESSION_MAX_AGE_DAYS after sign-in.
import { randomBytes } from 'node:crypto';
import type { Deps } from '../deps.js';
import type { SqlDb } from '../db/kysely.js';
import { sha256Hex } from '../crypto/tokens.js';
import { newId } from '../ids.js';
import { notFound } from '../errors.js';
import type { Viewer } from '../services/accounts.js';
import { sessionStore } from '../stores/session-store.js';

// lastSeenAt is written at most this often per session, so a busy page is not a write per request:
// a minute, or a tenth of the idle timeout when that is shorter.
const LAST_SEEN_RESOLUTION_MS = 60_000;

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

export function sessionService(deps: Pick<Deps, 'sql' | 'clock' | 'config' | 'events' | 'logger'>) {
  const { clock } = deps;
  const { sessionIdleMs, sessionMaxAgeMs } = deps.config.accounts;
  const store = sessionStore(deps.sql);

  const announce = async (ids: string[]) => {
    // Subscriptions opened with these sessions, in any process, end now (the revoked-credential channel of keys).
    for (const id of ids) {
      await deps.events.publishRevokedKey(id).catch((error: unknown) => deps.logger.warn({ err: error }, 'could not announce an ended session'));
    }
  };

  const resolutionMs = Math.min(LAST_SEEN_RESOLUTION_MS, Math.floor(sessionIdleMs / 10));
  // The stored lastSeenAt lags the last use by up to resolutionMs (the throttle above), so a session is
  // idle only once even its latest possible use is older than the timeout: one in use never ends, and an
  // idle one ends at most resolutionMs late.
  const idleSince = (lastSeenAt: Date, now: Date) => now.getTime() - lastSeenAt.getTime() > sessionIdleMs + resolutionMs;

  return {
    maxAgeMs: sessionMaxAgeMs,

    // A new session for the user; the secret goes into the cookie and nowhere else. `db`: the transaction
    // of the sign-in that opens it (an account created at sign-up), else the database.
    // `from`: the credential a session made from one (a pasted API key or identity provider token) is
    // bound to: it ends when that credential expires, and with the key when the key is revoked.
    async open(
      userId: string,
      method: SignInMethod,
      userAgent: string | undefined,
      db: SqlDb = deps.sql,
      from: { apiKeyId?: string | null; expiresAt?: Date | null } = {},
    ): Promise<{ secret: string; id: string; expiresAt: Date }> {
      const secret = randomBytes(32).toString('base64url');
      const now = clock.now();
      const id = newId('ses');
      const lifetimeEnds = now.getTime() + sessionMaxAgeMs;
      const expiresAt = new Date(from.expiresAt ? Math.min(lifetimeEnds, from.expiresAt.getTime()) : lifetimeEnds);
      await sessionStore(db).insert({
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
    },

    // The user of a live session, or null when it is unknown, revoked, idle too long or too old.
    async authenticate(secret: string): Promise<{ user: Viewer; sessionId: string; expiresAt: Date } | null> {
      const found = await store.findByHash(sha256Hex(secret));
      if (!found) return null;
      const { session, user } = found;
      const now = clock.now();
      if (session.revokedAt || session.expiresAt <= now || idleSince(session.lastSeenAt, now)) return null;
      if (now.getTime() - session.lastSeenAt.getTime() > resolutionMs) await store.touch(session.id, now);
      return { user: user as Viewer, sessionId: session.id, expiresAt: session.expiresAt };
    },

    async list(userId: string, currentId: string | null): Promise<SessionView[]> {
      const now = clock.now();
      const rows = await store.listOpen(userId, now);
      return rows
        .filter((s) => !idleSince(s.lastSeenAt, now))
        .map((s) => ({ id: s.id, method: s.method, userAgent: s.userAgent, createdAt: s.createdAt, lastSeenAt: s.lastSeenAt, expiresAt: s.expiresAt, current: s.id === currentId }));
    },

    async revoke(userId: string, id: string): Promise<void> {
      if (!(await store.revoke(userId, id, clock.now()))) throw notFound('session');
      await announce([id]);
    },

    // Sign-out: ends the session if it is still open; harmless otherwise.
    async end(userId: string, id: string): Promise<void> {
      if (await store.revoke(userId, id, clock.now())) await announce([id]);
    },

    // Sessions that ended more than a day ago (revoked or past their maximum age) are of no more use.
    prune: () => store.prune(new Date(clock.now().getTime() - 86_400_000)),

    // The key they were made from was revoked (in `db`, the revocation's transaction): its sessions end
    // with it. Returns the announcement to make once that transaction committed.
    async endMadeFromKey(apiKeyId: string, db: SqlDb): Promise<() => Promise<void>> {
      const ids = await sessionStore(db).revokeMadeFromKey(apiKeyId, clock.now());
      return () => announce(ids);
    },

    // "Sign out everywhere": every session of the user, this one included.
    async revokeAll(userId: string): Promise<number> {
      const ids = await store.revokeAll(userId, clock.now());
      await announce(ids);
      return ids.length;
    },
  };
}

export type SessionService = ReturnType<typeof sessionService>;
