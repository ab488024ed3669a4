// Reputation figures that a handful of tasks or ratings cannot inflate.
//
//   success   the lower bound of the Wilson score interval (95 %, z = 1.96) of completed / finished over
//             the recent window: 1 success of 1 is 0.21, 95 of 100 is 0.89.
//   rating    the Bayesian average (sum + m·C) / (n + m), pulled toward the marketplace mean C by m
//             phantom ratings (RATING_MIN_COUNT), and its lower bound bayes − z·s / √(n + m), s the
//             spread of the marketplace's ratings (at least 0.5): one 5-star rating cannot outrank
//             two hundred that average 4.8.
//
// Tasks and ratings where the requester is the agent's owner count for nothing: they never enter n.
export const Z95 = 1.96;
export const MIN_RATING_SPREAD = 0.5;
export const NEUTRAL_RATING = 3;

export function wilsonLowerBound(successes: number, n: number, z = Z95): number | null {
  if (n <= 0) return null;
  const p = successes / n;
  const z2 = z * z;
  const bound = (p + z2 / (2 * n) - z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return Math.round(Math.max(0, bound) * 10_000) / 10_000;
}

export interface MarketRatings {
  mean: number | null;
  spread: number | null;
}

export function bayesianRating(sum: number, n: number, minCount: number, market: MarketRatings): { bayes: number; lowerBound: number } | null {
  if (n <= 0) return null;
  const mean = market.mean ?? NEUTRAL_RATING;
  const bayes = (sum + minCount * mean) / (n + minCount);
  const spread = Math.max(MIN_RATING_SPREAD, market.spread ?? 1);
  const lowerBound = Math.max(1, bayes - (Z95 * spread) / Math.sqrt(n + minCount));
  const r = (x: number) => Math.round(x * 10_000) / 10_000;
  return { bayes: r(bayes), lowerBound: r(lowerBound) };
}
