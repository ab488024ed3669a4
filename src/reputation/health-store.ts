// Reading and writing an agent's health evidence. Writes leave updatedAt alone (see refresh-trust.ts).
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
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

// "A success leaves health as it is", stated once: the agent is healthy already (what a success makes it,
// healthAfterSuccess), no failure came since its last success, and both its last success and its last
// check are younger than HEALTHY_REWRITE_MS. The row form (for a caller that read the row and sends no
// statement then), the statement's condition, and recordSuccess's write (its negation) all derive from
// this one description.
function quietSuccess(now: Date) {
  const fresh = new Date(now.getTime() - HEALTHY_REWRITE_MS);
  return {
    equal: { healthStatus: healthAfterSuccess(now), healthFailStreak: 0 },
    // Set and no older than `fresh`.
    freshSince: { lastHealthyAt: fresh, healthCheckedAt: fresh },
  } as const;
}

type Equal = keyof ReturnType<typeof quietSuccess>['equal'];
type Fresh = keyof ReturnType<typeof quietSuccess>['freshSince'];
const entries = <K extends string, V>(o: Record<K, V>) => Object.entries(o) as Array<[K, V]>;

export const successLeavesHealth = {
  // On a row read before.
  row(a: HealthFigures, now: Date): boolean {
    const rule = quietSuccess(now);
    return (
      entries(rule.equal).every(([column, value]) => a[column as Equal] === value) &&
      entries(rule.freshSince).every(([column, since]) => {
        const at = a[column as Fresh];
        return at !== null && at >= since;
      })
    );
  },
  // On the row as it is when a statement runs. Never NULL (a NULL time makes its conjunct false), so
  // its negation is the exact complement.
  sql(now: Date) {
    const rule = quietSuccess(now);
    return (eb: ExpressionBuilder<DB, 'agents'>): Expression<SqlBool> =>
      eb.and([
        ...entries(rule.equal).map(([column, value]) => eb(`agents.${column as Equal}`, '=', value)),
        ...entries(rule.freshSince).flatMap(([column, since]) => [
          eb(`agents.${column as Fresh}`, 'is not', null),
          eb(`agents.${column as Fresh}`, '>=', since),
        ]),
      ]);
  },
};

const healthAfterSuccess = (now: Date): HealthStatus => healthStatus(withOutcome({ failStreak: 0, lastHealthyAt: null, lastUnhealthyAt: null }, true, now), now);

// A success makes the agent healthy whatever came before (withOutcome, healthStatus): one statement, which
// writes only when it does not leave health as it is (successLeavesHealth), and returns the status the
// row had. Null for an unknown agent or when there was nothing to write.
async function recordSuccess(tx: SqlDb, agentId: string, now: Date): Promise<HealthChange | null> {
  const after = healthAfterSuccess(now);
  const leaves = successLeavesHealth.sql(now);
  const row = await tx
    .with('old', (q) => q.selectFrom('agents').select(['id', 'healthStatus']).where('id', '=', agentId))
    .updateTable('agents')
    .from('old')
    .set({ healthStatus: after, healthFailStreak: 0, lastHealthyAt: now, healthCheckedAt: now })
    .whereRef('agents.id', '=', 'old.id')
    .where((eb) => eb.not(leaves(eb)))
    .returning('old.healthStatus as before')
    .executeTakeFirst();
  return row ? { before: row.before, after } : null;
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
