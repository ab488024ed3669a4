// What every account rule works with: the dependencies, the mailer of sign-in links (none without
// SMTP_URL), and the session lifetimes the settings give.
import type { Deps } from '../../deps.js';
import type { Mailer } from '../../mail/mailer.js';
import type { User } from '../../generated/prisma/client.js';

// The user a request acts as.
export type Viewer = User;

export type AccountDeps = Pick<Deps, 'sql' | 'clock' | 'config' | 'events' | 'logger' | 'secretBox' | 'urls'>;

// lastSeenAt is written at most this often per session, so a busy page is not a write per request:
// a minute, or a tenth of the idle timeout when that is shorter.
const LAST_SEEN_RESOLUTION_MS = 60_000;

export interface SessionTimes {
  idleMs: number;
  maxAgeMs: number;
  // How much the stored lastSeenAt may lag a session's last use.
  resolutionMs: number;
}

export interface AccountContext {
  deps: AccountDeps;
  mailer: Mailer | null;
  sessionTimes: SessionTimes;
}

export function accountContext(deps: AccountDeps, mailer: Mailer | null): AccountContext {
  const { sessionIdleMs, sessionMaxAgeMs } = deps.config.accounts;
  const sessionTimes = { idleMs: sessionIdleMs, maxAgeMs: sessionMaxAgeMs, resolutionMs: Math.min(LAST_SEEN_RESOLUTION_MS, Math.floor(sessionIdleMs / 10)) };
  return { deps, mailer, sessionTimes };
}

// Subscriptions opened with these credentials (keys, sessions), in any process, end now rather than at
// their next check.
export async function announceEnded(ctx: AccountContext, ids: string[], what: string): Promise<void> {
  for (const id of ids) {
    await ctx.deps.events.publishRevokedKey(id).catch((error: unknown) => ctx.deps.logger.warn({ err: error }, `could not announce ${what}`));
  }
}
