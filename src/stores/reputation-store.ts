// The reputation figures' SQL: the recount of an agent's record (which tasks count is counted-tasks.ts), its
// ratings, the inputs of its trust and the trust stored, its daily figures and a requester's record. The
// arithmetic (trust, the bounds, the rates) is src/reputation/'s: these statements read its inputs and
// store its results. Writes leave updatedAt alone: that is the owner's last edit, which discovery sorts by.
import { sql, type Selectable } from 'kysely';
import type { SqlDb } from '../db/kysely.js';
import type { Agent, TrustTier } from '../generated/kysely/types.js';
import { takenStatusSql, type StatusRange } from './attempt-taken.js';
import { countedTaskSql, FAILURE_SQL, SUCCESS_SQL } from './counted-tasks.js';

// The columns trust is computed from, and the trust stored now.
const TRUST_COLUMNS = [
  'agents.verified',
  'agents.completedCount',
  'agents.failedCount',
  'agents.ratingSum',
  'agents.ratingCount',
  'agents.healthStatus',
  'agents.successLowerBound',
  'agents.ratingLowerBound',
  'agents.trustScore',
  'agents.trustTier',
] as const;

type AgentFigures = Selectable<Agent>;
export type TrustFigures = Pick<
  AgentFigures,
  'verified' | 'completedCount' | 'failedCount' | 'ratingSum' | 'ratingCount' | 'healthStatus' | 'successLowerBound' | 'ratingLowerBound' | 'trustScore' | 'trustTier'
>;
export interface StoredTrust {
  trustScore: number;
  trustTier: TrustTier;
}

export async function trustFigures(db: SqlDb, agentId: string): Promise<TrustFigures | null> {
  return (await db.selectFrom('agents').select(TRUST_COLUMNS).where('agents.id', '=', agentId).executeTakeFirst()) ?? null;
}

// Writes only when the score or the tier moved.
export async function storeTrust(db: SqlDb, agentId: string, trust: StoredTrust): Promise<void> {
  await db
    .updateTable('agents')
    .set(trust)
    .where('id', '=', agentId)
    .where((eb) => eb.or([eb('trustScore', '<>', trust.trustScore), eb('trustTier', '<>', trust.trustTier)]))
    .execute();
}

// The success bound with the trust it moves, in one write.
export async function storeSuccessBound(db: SqlDb, agentId: string, successLowerBound: number | null, trust: StoredTrust): Promise<void> {
  await db.updateTable('agents').set({ successLowerBound, ...trust }).where('id', '=', agentId).execute();
}

export type RecountedFigures = TrustFigures & Pick<AgentFigures, 'recentFinished' | 'recentSuccessRate'>;

/**
 * Recounts the agent's tasks that count: the lifetime counts, and over its `recent` latest finished tasks
 * the success rate and the p50/p95 time from delivery (the first attempt its endpoint took, `taken`; older
 * data falls back to start or match) to completion. Recounting, not incrementing: a repeated call leaves
 * the same numbers. Returns what trust is computed from; null for an unknown agent.
 */
export async function recountTrackRecord(db: SqlDb, agentId: string, recent: number, taken: StatusRange): Promise<RecountedFigures | null> {
  const row = await db
    .with('finished', (q) =>
      q
        .selectFrom('tasks as t')
        .select((eb) => [
          SUCCESS_SQL.as('succeeded'),
          't.finishedAt',
          eb.fn
            .coalesce(
              eb
                .selectFrom('deliveries as d')
                .innerJoin('deliveryAttempts as at', 'at.deliveryId', 'd.id')
                .select((e) => e.fn.min('at.at').as('firstTaken'))
                .whereRef('d.taskId', '=', 't.id')
                .where(takenStatusSql('at.status_code', taken)),
              't.startedAt',
              't.matchedAt',
            )
            .as('deliveredAt'),
        ])
        .where(countedTaskSql(agentId))
        .orderBy((eb) => eb.fn.coalesce('t.finishedAt', 't.updatedAt'), 'desc')
        .limit(recent),
    )
    .with('durations', (q) =>
      q
        .selectFrom('finished')
        .select(sql<number>`extract(epoch FROM finished_at - delivered_at) * 1000`.as('ms'))
        .where('succeeded', '=', true)
        .whereRef('finishedAt', '>=', 'deliveredAt'),
    )
    .with('recent', (q) =>
      q.selectFrom('finished').select([
        sql<number>`count(*)::int`.as('n'),
        sql<number>`count(*) FILTER (WHERE succeeded)::int`.as('completed'),
        sql<number | null>`(SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms))::int FROM durations)`.as('p50'),
        sql<number | null>`(SELECT round(percentile_cont(0.95) WITHIN GROUP (ORDER BY ms))::int FROM durations)`.as('p95'),
      ]),
    )
    .with('lifetime', (q) =>
      q
        .selectFrom('tasks as t')
        .select([
          sql<number>`count(*)::int`.as('tasks'),
          sql<number>`count(*) FILTER (WHERE ${SUCCESS_SQL})::int`.as('completed'),
          sql<number>`count(*) FILTER (WHERE ${FAILURE_SQL})::int`.as('failed'),
        ])
        .where(countedTaskSql(agentId)),
    )
    .updateTable('agents')
    .from(['lifetime', 'recent'])
    .set((eb) => ({
      taskCount: eb.ref('lifetime.tasks'),
      completedCount: eb.ref('lifetime.completed'),
      failedCount: eb.ref('lifetime.failed'),
      recentFinished: eb.ref('recent.n'),
      recentSuccessRate: sql<number | null>`CASE WHEN recent.n > 0 THEN recent.completed::float8 / recent.n END`,
      p50CompletionMs: eb.ref('recent.p50'),
      p95CompletionMs: eb.ref('recent.p95'),
    }))
    .where('agents.id', '=', agentId)
    .returning(['agents.recentFinished', 'agents.recentSuccessRate', ...TRUST_COLUMNS])
    .executeTakeFirst();
  return row ?? null;
}

// The agent's ratings that count (a rated task is a completed one, counted-tasks.ts): how many and their sum.
export async function countedRatings(db: SqlDb, agentId: string): Promise<{ n: number; sum: number }> {
  const row = await db
    .selectFrom('tasks as t')
    .select([sql<number>`count(t.rating)::int`.as('n'), sql<number>`COALESCE(sum(t.rating), 0)::int`.as('sum')])
    .where(countedTaskSql(agentId))
    .executeTakeFirstOrThrow();
  return row;
}

// The marketplace's ratings that count (not by an agent's owner): their mean and spread, null without any.
export async function marketRatings(db: SqlDb): Promise<{ mean: number | null; spread: number | null }> {
  return db
    .selectFrom('tasks as t')
    .innerJoin('agents as a', 'a.id', 't.agentId')
    .select([sql<number | null>`avg(t.rating)::float8`.as('mean'), sql<number | null>`stddev_pop(t.rating)::float8`.as('spread')])
    .where('t.rating', 'is not', null)
    .whereRef('t.requesterId', '<>', 'a.ownerId')
    .executeTakeFirstOrThrow();
}

export async function storeRatings(
  db: SqlDb,
  agentId: string,
  ratings: Pick<AgentFigures, 'ratingCount' | 'ratingSum' | 'ratingBayes' | 'ratingLowerBound'>,
): Promise<void> {
  await db.updateTable('agents').set(ratings).where('id', '=', agentId).execute();
}

// The agent's counted tasks finished since `first`, successes and failures per day (UTC, YYYY-MM-DD); days
// without any are absent.
export async function outcomesPerDay(db: SqlDb, agentId: string, first: Date): Promise<Array<{ day: string; completed: number; failed: number }>> {
  return db
    .selectFrom('tasks as t')
    .select([
      sql<string>`to_char(t.finished_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`.as('day'),
      sql<number>`count(*) FILTER (WHERE ${SUCCESS_SQL})::int`.as('completed'),
      sql<number>`count(*) FILTER (WHERE ${FAILURE_SQL})::int`.as('failed'),
    ])
    .where(countedTaskSql(agentId))
    .where('t.finishedAt', '>=', first)
    .groupBy(sql`1`)
    .execute();
}

export interface RequesterCounts {
  tasks: number;
  reviewed: number;
  approved: number;
  rejected: number;
  contested: number;
  cancelled: number;
}

// A requester's tasks that reached an agent other than his own, counted as his record needs them
// (reputation/requester-record.ts): reviewed is completed or rejected; a rejection or a contest is in the
// task's history.
export async function requesterCounts(db: SqlDb, requesterId: string): Promise<RequesterCounts> {
  return db
    .with('mine', (q) =>
      q
        .selectFrom('tasks as t')
        .innerJoin('agents as a', 'a.id', 't.agentId')
        .select((eb) => [
          't.status',
          eb.exists(eb.selectFrom('taskHistory as h').select('h.id').whereRef('h.taskId', '=', 't.id').where('h.action', '=', 'reject')).as('rejected'),
          eb.exists(eb.selectFrom('taskHistory as h').select('h.id').whereRef('h.taskId', '=', 't.id').where('h.action', '=', 'contest')).as('contested'),
        ])
        .where('t.requesterId', '=', requesterId)
        .where('a.ownerId', '<>', requesterId),
    )
    .selectFrom('mine')
    .select([
      sql<number>`count(*)::int`.as('tasks'),
      sql<number>`count(*) FILTER (WHERE status = 'completed' OR rejected)::int`.as('reviewed'),
      sql<number>`count(*) FILTER (WHERE status = 'completed' AND NOT rejected)::int`.as('approved'),
      sql<number>`count(*) FILTER (WHERE rejected)::int`.as('rejected'),
      sql<number>`count(*) FILTER (WHERE contested)::int`.as('contested'),
      sql<number>`count(*) FILTER (WHERE status = 'cancelled')::int`.as('cancelled'),
    ])
    .executeTakeFirstOrThrow();
}
