// Recording an agent's health evidence: the rules of health.ts applied to its row (stores/agent-health-store.ts).
import type { HealthStatus } from '../generated/prisma/client.js';
import type { SqlDb } from '../db/kysely.js';
import {
  lockHealthEvidence,
  quietSuccessForms,
  recordHealthySuccess,
  storeHealthEvidence,
  type HealthFigures,
  type QuietSuccess,
} from '../stores/agent-health-store.js';
import { healthStatus, withOutcome } from './health.js';

export type { HealthFigures };

export interface HealthChange {
  before: HealthStatus;
  after: HealthStatus;
}

// Adds one outcome to the agent's evidence. A failure locks the row first: concurrent deliveries to the
// same agent must not lose each other's failures from the streak.
export async function recordHealthOutcome(tx: SqlDb, agentId: string, ok: boolean, now: Date): Promise<HealthChange | null> {
  if (ok) return recordSuccess(tx, agentId, now);
  const current = await lockHealthEvidence(tx, agentId);
  if (!current) return null;
  const next = withOutcome({ failStreak: current.healthFailStreak, lastHealthyAt: current.lastHealthyAt, lastUnhealthyAt: current.lastUnhealthyAt }, ok, now);
  const after = healthStatus(next, now);
  await storeHealthEvidence(tx, agentId, { healthStatus: after, healthFailStreak: next.failStreak, lastHealthyAt: next.lastHealthyAt, lastUnhealthyAt: next.lastUnhealthyAt }, now);
  return { before: current.healthStatus, after };
}

// How old a healthy agent's evidence may get before a success writes it again. A success on an agent that
// is healthy already changes only two times; writing them on every delivery made all deliveries to one
// agent wait for each other on its row. Far below the evidence window (health.ts) and the sweep interval.
export const HEALTHY_REWRITE_MS = 60_000;

const healthAfterSuccess = (now: Date): HealthStatus => healthStatus(withOutcome({ failStreak: 0, lastHealthyAt: null, lastUnhealthyAt: null }, true, now), now);

// "A success leaves health as it is", stated once: the agent is healthy already (what a success makes it,
// healthAfterSuccess), no failure came since its last success, and both its last success and its last
// check are younger than HEALTHY_REWRITE_MS. The row form (for a caller that read the row and sends no
// statement then), the statement's condition, and recordSuccess's write (its negation) all derive from
// this one description (stores/agent-health-store.ts quietSuccessForms).
function quietSuccess(now: Date): QuietSuccess {
  const fresh = new Date(now.getTime() - HEALTHY_REWRITE_MS);
  return {
    equal: { healthStatus: healthAfterSuccess(now), healthFailStreak: 0 },
    freshSince: { lastHealthyAt: fresh, healthCheckedAt: fresh },
  };
}

export const successLeavesHealth = {
  // On a row read before.
  row: (a: HealthFigures, now: Date): boolean => quietSuccessForms.row(quietSuccess(now), a),
  // The rule itself, for a statement's condition on the row as it is then (quietSuccessForms.sql).
  rule: quietSuccess,
};

// A success makes the agent healthy whatever came before (withOutcome, healthStatus): one statement, which
// writes only when it does not leave health as it is. Null for an unknown agent or when there was nothing
// to write.
async function recordSuccess(tx: SqlDb, agentId: string, now: Date): Promise<HealthChange | null> {
  const after = healthAfterSuccess(now);
  const before = await recordHealthySuccess(tx, agentId, after, now, quietSuccess(now));
  return before ? { before, after } : null;
}
