import { describe, expect, it } from 'vitest';
import type { Agent } from '../generated/prisma/client.js';
import { scoreAgent } from './routing.js';

const base = {
  trustScore: 0.5,
  ratingCount: 0,
  ratingSum: 0,
  completedCount: 0,
  failedCount: 0,
  healthStatus: 'unknown',
  priceCents: 100,
} as unknown as Agent;

describe('the routing score', () => {
  it('rises with trust, ratings, success, health and idleness, and falls with price', () => {
    const s = (over: Partial<Agent>, inFlight = 0, cap: number | null = null) => scoreAgent({ ...base, ...over }, inFlight, cap);
    const plain = s({});
    expect(s({ trustScore: 0.9 })).toBeGreaterThan(plain);
    expect(s({ ratingCount: 2, ratingSum: 10 })).toBeGreaterThan(plain);
    expect(s({ ratingCount: 2, ratingSum: 2 })).toBeLessThan(plain);
    expect(s({ completedCount: 9, failedCount: 1 })).toBeGreaterThan(plain);
    expect(s({ healthStatus: 'healthy' })).toBeGreaterThan(plain);
    expect(s({}, 3)).toBeLessThan(plain);
    expect(s({ priceCents: 900 })).toBeLessThan(plain);
    expect(s({ priceCents: 50 }, 0, 100)).toBeGreaterThan(s({ priceCents: 90 }, 0, 100));
  });

  it('stays between 0 and 1', () => {
    const best = scoreAgent({ ...base, trustScore: 1, ratingCount: 1, ratingSum: 5, completedCount: 1, healthStatus: 'healthy', priceCents: 0 } as Agent, 0, null);
    const worst = scoreAgent({ ...base, trustScore: 0, ratingCount: 1, ratingSum: 1, failedCount: 1, priceCents: 100 } as Agent, 1000, 100);
    expect(best).toBeLessThanOrEqual(1);
    expect(best).toBeCloseTo(1, 2);
    expect(worst).toBeGreaterThanOrEqual(0);
  });
});
