// The trust score and tier of an agent: one formula over verification, completion rate, ratings, health
// and history length. Discovery ranks with it and routing prefers agents with more of it.
//
//   trustScore = 0.25·completion + 0.25·rating + 0.15·health + 0.15·verified + 0.20·history     (0..1)
//
//   completion = (completed + 1) / (finished + 2)          completion rate, smoothed toward 0.5 so that
//                                                          a handful of tasks cannot make it 0 or 1
//   rating     = (bayes − 1) / 4, bayes = (ratingSum + 3·2) / (ratingCount + 2)
//                                                          average rating pulled toward 3 by two
//                                                          phantom ratings; 0.5 when there are none
//   health     = 1 healthy, 0.5 unknown, 0 unhealthy
//   verified   = 1 when an administrator verified the agent, else 0
//   history    = min(1, ln(1 + finished) / ln(1 + 100))    saturates at 100 finished tasks
//
// finished = completed + failed (failed includes expired after the agent had the task). The service
// passes the bounded figures (bounded.ts), which replace two terms: completion = the Wilson lower bound of
// the recent success rate, rating = (lower bound of the Bayesian average − 1) / 4; 0.5 while nothing
// counts. Tasks and ratings where the requester owns the agent never enter them. Tiers:
//
//   unrated   fewer than 5 finished tasks, whatever the score
//   diamond   score ≥ 0.90   (unreachable without verification: the other terms add up to 0.85)
//   gold      score ≥ 0.75
//   silver    score ≥ 0.55
//   bronze    below 0.55
import type { HealthStatus, TrustTier } from '../generated/prisma/client.js';

export const TRUST_WEIGHTS = { completion: 0.25, rating: 0.25, health: 0.15, verified: 0.15, history: 0.2 } as const;
export const RATING_PRIOR = { mean: 3, weight: 2 } as const;
export const HISTORY_SATURATION = 100;
export const MIN_FINISHED_FOR_TIER = 5;
export const TIER_THRESHOLDS: ReadonlyArray<readonly [Exclude<TrustTier, 'unrated'>, number]> = [
  ['diamond', 0.9],
  ['gold', 0.75],
  ['silver', 0.55],
  ['bronze', 0],
];

export interface TrustInputs {
  // The bounded figures (bounded.ts) when known: they replace the smoothed completion and rating terms,
  // so that the tier moves only with evidence that cannot be pumped (null: nothing counted yet, 0.5).
  successLowerBound?: number | null;
  ratingLowerBound?: number | null;
  verified: boolean;
  completedCount: number;
  failedCount: number;
  ratingSum: number;
  ratingCount: number;
  healthStatus: HealthStatus;
}

const HEALTH_VALUE: Record<HealthStatus, number> = { healthy: 1, unknown: 0.5, unhealthy: 0 };

export function trustComponents(i: TrustInputs) {
  const finished = i.completedCount + i.failedCount;
  const bayesRating = (i.ratingSum + RATING_PRIOR.mean * RATING_PRIOR.weight) / (i.ratingCount + RATING_PRIOR.weight);
  return {
    completion: i.successLowerBound !== undefined ? (i.successLowerBound ?? 0.5) : (i.completedCount + 1) / (finished + 2),
    rating: i.ratingLowerBound !== undefined ? (i.ratingLowerBound === null ? 0.5 : (i.ratingLowerBound - 1) / 4) : (bayesRating - 1) / 4,
    health: HEALTH_VALUE[i.healthStatus],
    verified: i.verified ? 1 : 0,
    history: Math.min(1, Math.log1p(finished) / Math.log1p(HISTORY_SATURATION)),
  };
}

export function trustScore(i: TrustInputs): number {
  const c = trustComponents(i);
  const score =
    TRUST_WEIGHTS.completion * c.completion +
    TRUST_WEIGHTS.rating * c.rating +
    TRUST_WEIGHTS.health * c.health +
    TRUST_WEIGHTS.verified * c.verified +
    TRUST_WEIGHTS.history * c.history;
  // Four decimals: enough to order by, and stable against float noise between recomputations.
  return Math.round(Math.min(1, Math.max(0, score)) * 10_000) / 10_000;
}

export function trustTier(score: number, finished: number): TrustTier {
  if (finished < MIN_FINISHED_FOR_TIER) return 'unrated';
  return TIER_THRESHOLDS.find(([, min]) => score >= min)![0];
}
