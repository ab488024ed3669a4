// An agent's health evidence on its row: the outcomes the deliveries and the probe record, and the sweep's
// reads and ageing. What the evidence makes of the status is reputation/health.ts; these statements read
// and write it. Writes leave updatedAt alone: that is the owner's last edit, which discovery sorts by.
import { sql, type Expression, type ExpressionBuilder, type Selectable, type SqlBool } from 'kysely';
import type { DB, SqlDb } from '../db/kysely.js';
import type { Agent, HealthStatus } from '../generated/kysely/types.js';

type AgentFigures = Selectable<Agent>;
export type HealthEvidenceRow = Pick<AgentFigures, 'healthStatus' | 'healthFailStreak' | 'lastHealthyAt' | 'lastUnhealthyAt'>;

// The evidence, locked until the transaction ends: concurrent outcomes for one agent count one by one.
export async function lockHealthEvidence(tx: SqlDb, agentId: string): Promise<HealthEvidenceRow | null> {
  const row = await tx
    .selectFrom('agents')
    .select(['healthStatus', 'healthFailStreak', 'lastHealthyAt', 'lastUnhealthyAt'])
    .where('id', '=', agentId)
    .forUpdate()
    .executeTakeFirst();
  return row ?? null;
}

export async function storeHealthEvidence(tx: SqlDb, agentId: string, evidence: HealthEvidenceRow, checkedAt: Date): Promise<void> {
  await tx
    .updateTable('agents')
    .set({ ...evidence, healthCheckedAt: checkedAt })
    .where('id', '=', agentId)
    .execute();
}

// The evidence a success reads on an agents row (whether it leaves health as it is).
export type HealthFigures = Pick<AgentFigures, 'healthStatus' | 'healthFailStreak' | 'lastHealthyAt' | 'healthCheckedAt'>;

// "A success leaves health as it is", as its rule describes it (reputation/health-evidence.ts): columns
// equal to these values, and times set and no older than these.
export interface QuietSuccess {
  equal: Pick<HealthFigures, 'healthStatus' | 'healthFailStreak'>;
  freshSince: { lastHealthyAt: Date; healthCheckedAt: Date };
}

type Equal = keyof QuietSuccess['equal'];
type Fresh = keyof QuietSuccess['freshSince'];
const entries = <K extends string, V>(o: Record<K, V>) => Object.entries(o) as Array<[K, V]>;

// Both forms of a QuietSuccess, made from its one description.
export const quietSuccessForms = {
  // On a row read before.
  row(rule: QuietSuccess, a: HealthFigures): boolean {
    return (
      entries(rule.equal).every(([column, value]) => a[column as Equal] === value) &&
      entries(rule.freshSince).every(([column, since]) => {
        const at = a[column as Fresh];
        return at !== null && at >= since;
      })
    );
  },
  // On the row as it is when a statement runs. Never NULL (a NULL time makes its conjunct false), so its
  // negation is the exact complement.
  sql(rule: QuietSuccess) {
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

/**
 * A success, in one statement: the row takes `after` (no failure streak, healthy and checked `now`) unless
 * it meets `quiet` already. Returns the status the row had; null for an unknown agent or when nothing was
 * written.
 */
export async function recordHealthySuccess(tx: SqlDb, agentId: string, after: HealthStatus, now: Date, quiet: QuietSuccess): Promise<HealthStatus | null> {
  const leaves = quietSuccessForms.sql(quiet);
  const row = await tx
    .with('old', (q) => q.selectFrom('agents').select(['id', 'healthStatus']).where('id', '=', agentId))
    .updateTable('agents')
    .from('old')
    .set({ healthStatus: after, healthFailStreak: 0, lastHealthyAt: now, healthCheckedAt: now })
    .whereRef('agents.id', '=', 'old.id')
    .where((eb) => eb.not(leaves(eb)))
    .returning('old.healthStatus as before')
    .executeTakeFirst();
  return row?.before ?? null;
}

// Agents whose latest evidence (or check) is older than `cutoff` go back to unknown. Returns their ids.
export async function expireHealthEvidence(db: SqlDb, cutoff: Date): Promise<string[]> {
  const rows = await db
    .updateTable('agents')
    .set({ healthStatus: 'unknown' })
    .where('healthStatus', '<>', 'unknown')
    .where((eb) => eb(eb.fn.coalesce(eb.fn<Date | null>('greatest', ['lastHealthyAt', 'lastUnhealthyAt']), 'healthCheckedAt', sql<Date>`'-infinity'`), '<', cutoff))
    .returning('id')
    .execute();
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

// What the probe needs of an agent.
export async function probeTarget(db: SqlDb, agentId: string): Promise<Pick<AgentFigures, 'status' | 'endpoint' | 'manifestUrl' | 'deliveryMode'> | null> {
  const row = await db.selectFrom('agents').select(['status', 'endpoint', 'manifestUrl', 'deliveryMode']).where('id', '=', agentId).executeTakeFirst();
  return row ?? null;
}
