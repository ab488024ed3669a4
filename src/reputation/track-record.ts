// An agent's task counts and recent track record, recounted from its tasks (stores/reputation-store.ts):
// recounting, not incrementing, makes the update idempotent, so a retried job or a repeated hook leaves the
// same numbers. Which tasks count, and as what, is stores/counted-tasks.ts: the lifetime counts, the recent
// window and the daily figures (daily.ts) are made of the same tasks.
import type { SqlDb } from '../db/kysely.js';
import { TAKEN_STATUSES } from '../delivery/attempt-verdict.js';
import { countedRatings, marketRatings, recountTrackRecord, storeRatings, storeSuccessBound } from '../stores/reputation-store.js';
import { bayesianRating, wilsonLowerBound } from './bounded.js';
import { trustOf } from './refresh-trust.js';

// The track record covers this many of the agent's latest finished tasks.
export const RECENT_TASKS = 100;

// The recount and the trust it leads to in two statements: the recount returns what trust is computed
// from, and one update stores the success bound with the trust score and tier (which the bound moves).
// A task's delivery time is when the agent's endpoint first took it (the one attempt verdict's 2xx).
export async function refreshTrackRecord(tx: SqlDb, agentId: string): Promise<void> {
  const counted = await recountTrackRecord(tx, agentId, RECENT_TASKS, TAKEN_STATUSES);
  if (!counted) return;
  const bound = wilsonLowerBound(Math.round((counted.recentSuccessRate ?? 0) * counted.recentFinished), counted.recentFinished);
  await storeSuccessBound(tx, agentId, bound, trustOf({ ...counted, successLowerBound: bound }));
}

// Rating count and sum, recounted from the agent's rated tasks that count (a rated task is a completed
// one, so not rated by the owner), and the bounded figures from them and the marketplace's counted ratings
// (bounded.ts).
export async function refreshRatings(tx: SqlDb, agentId: string, minCount: number): Promise<void> {
  const own = await countedRatings(tx, agentId);
  const bounded = bayesianRating(own.sum, own.n, minCount, await marketRatings(tx));
  await storeRatings(tx, agentId, { ratingCount: own.n, ratingSum: own.sum, ratingBayes: bounded?.bayes ?? null, ratingLowerBound: bounded?.lowerBound ?? null });
}
