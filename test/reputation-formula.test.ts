// The trust formula, its tiers and the health rules, as documented in src/reputation/trust.ts and health.ts.
import { describe, expect, it } from 'vitest';
import { MIN_FINISHED_FOR_TIER, trustScore, trustTier, type TrustInputs } from '../src/reputation/trust.js';
import { HEALTH_WINDOW_MS, healthStatus, withOutcome, type HealthEvidence } from '../src/reputation/health.js';

const fresh: TrustInputs = { verified: false, completedCount: 0, failedCount: 0, ratingSum: 0, ratingCount: 0, healthStatus: 'unknown' };

describe('trust score', () => {
  it('gives a new agent the neutral priors only: 0.25·0.5 + 0.25·0.5 + 0.15·0.5', () => {
    expect(trustScore(fresh)).toBe(0.325);
  });

  it('rises with each input and falls with failures and bad health', () => {
    const base = trustScore(fresh);
    expect(trustScore({ ...fresh, verified: true })).toBeCloseTo(base + 0.15, 4);
    expect(trustScore({ ...fresh, healthStatus: 'healthy' })).toBeCloseTo(base + 0.075, 4);
    expect(trustScore({ ...fresh, healthStatus: 'unhealthy' })).toBeCloseTo(base - 0.075, 4);
    expect(trustScore({ ...fresh, ratingSum: 50, ratingCount: 10 })).toBeGreaterThan(base);
    expect(trustScore({ ...fresh, ratingSum: 10, ratingCount: 10 })).toBeLessThan(base);
    expect(trustScore({ ...fresh, completedCount: 20 })).toBeGreaterThan(trustScore({ ...fresh, completedCount: 10 }));
    expect(trustScore({ ...fresh, completedCount: 10, failedCount: 10 })).toBeLessThan(trustScore({ ...fresh, completedCount: 20 }));
  });

  it('matches the documented formula on a worked example', () => {
    // 40 completed, 10 failed, ratings 4.5 × 20, healthy, verified.
    const inputs: TrustInputs = { verified: true, completedCount: 40, failedCount: 10, ratingSum: 90, ratingCount: 20, healthStatus: 'healthy' };
    const completion = 41 / 52;
    const rating = ((90 + 6) / 22 - 1) / 4;
    const history = Math.log(51) / Math.log(101);
    expect(trustScore(inputs)).toBeCloseTo(0.25 * completion + 0.25 * rating + 0.15 + 0.15 + 0.2 * history, 4);
  });

  it('stays within 0 and 1 at the extremes', () => {
    const best = { verified: true, completedCount: 10_000, failedCount: 0, ratingSum: 50_000, ratingCount: 10_000, healthStatus: 'healthy' as const };
    const worst = { verified: false, completedCount: 0, failedCount: 10_000, ratingSum: 10_000, ratingCount: 10_000, healthStatus: 'unhealthy' as const };
    expect(trustScore(best)).toBeLessThanOrEqual(1);
    expect(trustScore(best)).toBeGreaterThan(0.99);
    expect(trustScore(worst)).toBeGreaterThanOrEqual(0);
  });
});

describe('trust tier', () => {
  it(`is unrated below ${MIN_FINISHED_FOR_TIER} finished tasks, whatever the score`, () => {
    expect(trustTier(0.99, MIN_FINISHED_FOR_TIER - 1)).toBe('unrated');
    expect(trustTier(0.99, MIN_FINISHED_FOR_TIER)).toBe('diamond');
  });

  it.each([
    [0.9, 'diamond'],
    [0.8999, 'gold'],
    [0.75, 'gold'],
    [0.7499, 'silver'],
    [0.55, 'silver'],
    [0.5499, 'bronze'],
    [0, 'bronze'],
  ])('score %s is %s', (score, tier) => {
    expect(trustTier(score, 50)).toBe(tier);
  });

  it('cannot reach diamond without verification', () => {
    const perfect = { completedCount: 10_000, failedCount: 0, ratingSum: 50_000, ratingCount: 10_000, healthStatus: 'healthy' as const };
    expect(trustTier(trustScore({ ...perfect, verified: false }), 10_000)).toBe('gold');
    expect(trustTier(trustScore({ ...perfect, verified: true }), 10_000)).toBe('diamond');
  });
});

describe('health', () => {
  const now = new Date('2026-06-01T12:00:00Z');
  const none: HealthEvidence = { failStreak: 0, lastHealthyAt: null, lastUnhealthyAt: null };
  const apply = (outcomes: boolean[], start = none) => outcomes.reduce((e, ok) => withOutcome(e, ok, now), start);

  it('is unknown without evidence, healthy after a success', () => {
    expect(healthStatus(none, now)).toBe('unknown');
    expect(healthStatus(apply([true]), now)).toBe('healthy');
  });

  it('tolerates two failures after a success and turns unhealthy at the third', () => {
    expect(healthStatus(apply([true, false, false]), now)).toBe('healthy');
    expect(healthStatus(apply([true, false, false, false]), now)).toBe('unhealthy');
    expect(healthStatus(apply([true, false, false, false, true]), now)).toBe('healthy');
  });

  it('does not judge on one or two failures alone', () => {
    expect(healthStatus(apply([false]), now)).toBe('unknown');
    expect(healthStatus(apply([false, false]), now)).toBe('unknown');
    expect(healthStatus(apply([false, false, false]), now)).toBe('unhealthy');
  });

  it('forgets evidence older than the window', () => {
    const later = new Date(now.getTime() + HEALTH_WINDOW_MS + 1);
    expect(healthStatus(apply([true]), later)).toBe('unknown');
    expect(healthStatus(apply([false, false, false]), later)).toBe('unknown');
    // Old failures do not count toward a new streak.
    const renewed = withOutcome(apply([false, false, false]), false, later);
    expect(renewed.failStreak).toBe(1);
    expect(healthStatus(renewed, later)).toBe('unknown');
  });
});
