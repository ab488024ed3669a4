// An agent's task counts and recent track record, recounted from its tasks. Recounting (instead of
// incrementing) makes the update idempotent: a retried job or a repeated hook leaves the same numbers.
// Which tasks count, and as what, is counted-tasks.ts: the lifetime counts, the recent window and the
// daily figures (daily.ts) are made of the same tasks.
import { sql } from 'kysely';
import type { SqlDb } from '../db/kysely.js';
import { bayesianRating, wilsonLowerBound } from './bounded.js';
import { TRUST_COLUMNS, trustOf, type TrustRow } from './refresh-trust.js';
import { countedTaskSql, FAILURE_SQL, SUCCESS_SQL } from './counted-tasks.js';

// The track record covers this many of the agent's latest finished tasks.
export const RECENT_TASKS = 100;

// The recount and the trust it leads to in two statements: the recount returns what trust is computed
// from, and one update stores the success bound with the trust score and tier (which the bound moves).
export async function refreshTrackRecord(tx: SqlDb, agentId: string): Promise<void> {
  const [counted] = (await sql<TrustRow>`
    WITH finished AS (
      SELECT ${SUCCESS_SQL} AS succeeded, t.finished_at,
        -- Delivered when the agent's endpoint first answered 2xx; older data falls back to start or match.
        COALESCE(
          (SELECT min(at.at) FROM deliveries d JOIN delivery_attempts at ON at.delivery_id = d.id
           WHERE d.task_id = t.id AND at.status_code BETWEEN 200 AND 299),
          t.started_at, t.matched_at
        ) AS delivered_at
      FROM tasks t
      WHERE ${countedTaskSql(agentId)}
      ORDER BY COALESCE(t.finished_at, t.updated_at) DESC
      LIMIT ${RECENT_TASKS}
    ),
    durations AS (
      SELECT extract(epoch FROM finished_at - delivered_at) * 1000 AS ms
      FROM finished
      WHERE succeeded AND finished_at >= delivered_at
    ),
    recent AS (
      SELECT count(*)::int AS n,
        count(*) FILTER (WHERE succeeded)::int AS completed,
        (SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms))::int FROM durations) AS p50,
        (SELECT round(percentile_cont(0.95) WITHIN GROUP (ORDER BY ms))::int FROM durations) AS p95
      FROM finished
    ),
    lifetime AS (
      SELECT count(*)::int AS tasks,
        count(*) FILTER (WHERE ${SUCCESS_SQL})::int AS completed,
        count(*) FILTER (WHERE ${FAILURE_SQL})::int AS failed
      FROM tasks t WHERE ${countedTaskSql(agentId)}
    )
    UPDATE agents SET
      task_count = lifetime.tasks,
      completed_count = lifetime.completed,
      failed_count = lifetime.failed,
      recent_finished = recent.n,
      recent_success_rate = CASE WHEN recent.n > 0 THEN recent.completed::float8 / recent.n END,
      p50_completion_ms = recent.p50,
      p95_completion_ms = recent.p95
    FROM lifetime, recent
    WHERE agents.id = ${agentId}
    RETURNING agents.recent_finished AS "recentFinished", agents.recent_success_rate AS "recentSuccessRate", ${TRUST_COLUMNS}`.execute(tx)).rows;
  if (!counted) return;
  const bound = wilsonLowerBound(Math.round((counted.recentSuccessRate ?? 0) * counted.recentFinished), counted.recentFinished);
  const trust = trustOf({ ...counted, successLowerBound: bound });
  await sql`
    UPDATE agents SET success_lower_bound = ${bound}, trust_score = ${trust.trustScore}, trust_tier = ${trust.trustTier}::"TrustTier"
    WHERE id = ${agentId}`.execute(tx);
}

// Rating count and sum, recounted from the agent's rated tasks that count (counted-tasks.ts: a rated task
// is a completed one, so not rated by the owner), and the bounded figures from them and the marketplace's
// counted ratings (bounded.ts).
export async function refreshRatings(tx: SqlDb, agentId: string, minCount: number): Promise<void> {
  const [own] = (await sql<{ n: number; total: number }>`
    SELECT count(t.rating)::int AS n, COALESCE(sum(t.rating), 0)::int AS total
    FROM tasks t
    WHERE ${countedTaskSql(agentId)}`.execute(tx)).rows;
  const [market] = (await sql<{ mean: number | null; spread: number | null }>`
    SELECT avg(t.rating)::float8 AS mean, stddev_pop(t.rating)::float8 AS spread
    FROM tasks t JOIN agents a ON a.id = t.agent_id
    WHERE t.rating IS NOT NULL AND t.requester_id <> a.owner_id`.execute(tx)).rows;
  const n = own?.n ?? 0;
  const sum = own?.total ?? 0;
  const bounded = bayesianRating(sum, n, minCount, market ?? { mean: null, spread: null });
  await sql`
    UPDATE agents SET rating_count = ${n}, rating_sum = ${sum},
      rating_bayes = ${bounded?.bayes ?? null}, rating_lower_bound = ${bounded?.lowerBound ?? null}
    WHERE id = ${agentId}`.execute(tx);
}
