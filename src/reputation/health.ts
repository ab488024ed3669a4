// An agent's health from recent evidence: the outcomes of task deliveries and of the periodic probe.
//
//   unknown     no outcome in the last 24 hours
//   unhealthy   the latest 3 or more outcomes in a row failed (within 24 hours)
//   healthy     a success within 24 hours, and fewer than 3 failures since
//   unknown     otherwise: one or two failures and no recent success are not evidence enough either way
//
// Routing skips unhealthy agents, so a single timeout must not make an agent unhealthy.
import type { HealthStatus } from '../generated/prisma/client.js';

export const HEALTH_WINDOW_MS = 24 * 60 * 60 * 1000;
export const UNHEALTHY_AFTER_FAILURES = 3;

export interface HealthEvidence {
  failStreak: number;
  lastHealthyAt: Date | null;
  lastUnhealthyAt: Date | null;
}

const recent = (at: Date | null, now: Date) => at !== null && now.getTime() - at.getTime() <= HEALTH_WINDOW_MS;

export function healthStatus(e: HealthEvidence, now: Date): HealthStatus {
  const lastFailureRecent = recent(e.lastUnhealthyAt, now);
  if (!recent(e.lastHealthyAt, now) && !lastFailureRecent) return 'unknown';
  if (e.failStreak >= UNHEALTHY_AFTER_FAILURES && lastFailureRecent) return 'unhealthy';
  if (recent(e.lastHealthyAt, now)) return 'healthy';
  return 'unknown';
}

// The evidence after one more outcome. Failures older than the window do not add to a new streak.
export function withOutcome(e: HealthEvidence, ok: boolean, now: Date): HealthEvidence {
  if (ok) return { failStreak: 0, lastHealthyAt: now, lastUnhealthyAt: e.lastUnhealthyAt };
  const streak = recent(e.lastUnhealthyAt, now) ? e.failStreak : 0;
  return { failStreak: streak + 1, lastHealthyAt: e.lastHealthyAt, lastUnhealthyAt: now };
}
