// Reading and writing an agent's health evidence. Writes leave updatedAt alone (see refresh-trust.ts).
import { sql, type ExpressionBuilder } from 'kysely';
import type { DB, SqlDb } from '../db/kysely.js';
import type { Agent, HealthStatus } from '../generated/prisma/client.js';
import { HEALTH_WINDOW_MS, healthStatus, withOutcome, type HealthEvidence } from './health.js';

export interface HealthChange {
  before: HealthStatus;
  after: HealthStatus;
}

// Adds one outcome to the agent's evidence. The row is locked first: concurrent deliveries to the same
// agent must not lose each other's failures from the streak.
export async function recordHealthOutcome(tx: SqlDb, agentId: string, ok: boolean, now: Date): Promise<HealthChange | null> {
  if (ok) return recordSuccess(tx, agentId, now);
  const rows = (await sql<HealthEvidence & { status: HealthStatus }>`
    SELECT health_status AS status, health_fail_streak AS "failStreak",
      last_healthy_at AS "lastHealthyAt", last_unhealthy_at AS "lastUnhealthyAt"
    FROM agents WHERE id = ${agentId} FOR UPDATE`.execute(tx)).rows;
  const current = rows[0];
  if (!current) return null;
  const next = withOutcome(current, ok, now);
  const after = healthStatus(next, now);
  await sql`
    UPDATE agents SET health_status = ${after}::"HealthStatus", health_fail_streak = ${next.failStreak},
      last_healthy_at = ${next.lastHealthyAt}, last_unhealthy_at = ${next.lastUnhealthyAt}, health_checked_at = ${now}
    WHERE id = ${agentId}`.execute(tx);
  return { before: current.status, after };
}

// How old a healthy agent's evidence may get before a success writes it again. A success on an agent that
// is healthy already changes only two times; writing them on every delivery made all deliveries to one
// agent wait for each other on its row. Far below the evidence window (health.ts) and the sweep interval.
export const HEALTHY_REWRITE_MS = 60_000;

// The health evidence a success reads (recordSuccess's condition) on an agents row.
export type HealthFigures = Pick<Agent, 'healthStatus' | 'healthFailStreak' | 'lastHealthyAt' | 'healthCheckedAt'>;

// Whether a success on an agent whose row reads `a` leaves its health as it is: recordSuccess writes
// nothing then. For a caller that knows the row already and sends no statement in that case.
export function successLeavesHealth(a: HealthFigures, now: Date): boolean {
  const stale = new Date(now.getTime() - HEALTHY_REWRITE_MS);
  return (
    a.healthStatus === healthAfterSuccess(now) &&
    a.healthFailStreak === 0 &&
    a.lastHealthyAt !== null &&
    a.lastHealthyAt >= stale &&
    a.healthCheckedAt !== null &&
    a.healthCheckedAt >= stale
  );
}

// The same on the row as it is when the statement runs (the condition of a statement's part).
export function successLeavesHealthSql(now: Date) {
  const stale = new Date(now.getTime() - HEALTHY_REWRITE_MS);
  return (eb: ExpressionBuilder<DB, 'agents'>) =>
    eb.and([
      eb('agents.healthStatus', '=', healthAfterSuccess(now)),
      eb('agents.healthFailStreak', '=', 0),
      eb('agents.lastHealthyAt', '>=', stale),
      eb('agents.healthCheckedAt', '>=', stale),
    ]);
}

const healthAfterSuccess = (now: Date): HealthStatus => healthStatus(withOutcome({ failStreak: 0, lastHealthyAt: null, lastUnhealthyAt: null }, true, now), now);

// A success makes the agent healthy whatever came before (withOutcome, healthStatus): one statement, which
// writes only when something changes or the evidence is older than HEALTHY_REWRITE_MS, and returns the
// status the row had. Null for an unknown agent or when there was nothing to write.
async function recordSuccess(tx: SqlDb, agentId: string, now: Date): Promise<HealthChange | null> {
  const after = healthAfterSuccess(now);
  const stale = new Date(now.getTime() - HEALTHY_REWRITE_MS);
  const rows = (await sql<{ before: HealthStatus }>`
    WITH old AS (SELECT id, health_status FROM agents WHERE id = ${agentId})
    UPDATE agents SET health_status = ${after}::"HealthStatus", health_fail_streak = 0, last_healthy_at = ${now}, health_checked_at = ${now}
    FROM old
    WHERE agents.id = old.id
      AND (agents.health_status <> ${after}::"HealthStatus" OR agents.health_fail_streak <> 0
        OR agents.last_healthy_at IS NULL OR agents.last_healthy_at < ${stale}
        OR agents.health_checked_at IS NULL OR agents.health_checked_at < ${stale})
    RETURNING old.health_status::text AS before`.execute(tx)).rows;
  return rows[0] ? { before: rows[0].before, after } : null;
}

// Agents whose latest evidence has aged out of the window go back to unknown. Returns their ids.
export async function expireHealthEvidence(db: SqlDb, now: Date): Promise<string[]> {
  const cutoff = new Date(now.getTime() - HEALTH_WINDOW_MS);
  const rows = (await sql<{ id: string }>`
    UPDATE agents SET health_status = 'unknown'
    WHERE health_status <> 'unknown'
      AND COALESCE(GREATEST(last_healthy_at, last_unhealthy_at), health_checked_at, '-infinity') < ${cutoff}
    RETURNING id`.execute(db)).rows;
  return rows.map((r) => r.id);
}

// Up to `limit` active agents with no health evidence since `staleBefore`, longest silent first.
export async function silentAgentIds(db: SqlDb, staleBefore: Date, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('agents')
    .select('id')
    .where('status', '=', 'active')
    // A pulling agent has nothing to probe: its health comes from its claims and answers.
    .where('deliveryMode', '=', 'push')
    .where((eb) => eb.or([eb('healthCheckedAt', 'is', null), eb('healthCheckedAt', '<', staleBefore)]))
    .orderBy('healthCheckedAt', (ob) => ob.asc().nullsFirst())
    .orderBy('id', 'asc')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}
