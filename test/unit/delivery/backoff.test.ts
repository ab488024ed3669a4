import { describe, expect, it } from 'vitest';
import {
  MAX_RETRY_AFTER_MS,
  RETRY_DELAYS_MS,
  RETRY_JITTER_FRACTION,
  nextRetryDelayMs,
} from '../../../src/delivery/backoff.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

// random() = 0.5 puts the jitter exactly in the middle: no change.
const noJitter = { random: () => 0.5 };

describe('nextRetryDelayMs', () => {
  it('exports the schedule of waits after each failed attempt', () => {
    expect(RETRY_DELAYS_MS).toEqual([5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR]);
    expect(RETRY_JITTER_FRACTION).toBe(0.2);
  });

  it.each([
    [1, 0],
    [2, 5 * SECOND],
    [3, 5 * MINUTE],
    [4, 30 * MINUTE],
    [5, 2 * HOUR],
    [6, 5 * HOUR],
    [7, 10 * HOUR],
    [8, 10 * HOUR],
    [50, 10 * HOUR],
  ])('waits %d → %d ms before that attempt, without jitter', (attempt, expected) => {
    expect(nextRetryDelayMs(attempt, noJitter)).toBe(expected);
  });

  it('jitters uniformly within ±20 %', () => {
    expect(nextRetryDelayMs(3, { random: () => 0 })).toBe(4 * MINUTE);
    expect(nextRetryDelayMs(3, { random: () => 0.25 })).toBe(4.5 * MINUTE);
    expect(nextRetryDelayMs(3, { random: () => 0.75 })).toBe(5.5 * MINUTE);
    expect(nextRetryDelayMs(3, { random: () => 0.999999 })).toBeLessThanOrEqual(6 * MINUTE);
    expect(nextRetryDelayMs(3, { random: () => 0.999999 })).toBeGreaterThan(5.99 * MINUTE);
  });

  it('stays within bounds with the default random source', () => {
    for (let i = 0; i < 200; i += 1) {
      const delay = nextRetryDelayMs(2);
      expect(delay).toBeGreaterThanOrEqual(4 * SECOND);
      expect(delay).toBeLessThanOrEqual(6 * SECOND);
    }
  });

  it('keeps the first attempt immediate whatever the jitter', () => {
    expect(nextRetryDelayMs(1, { random: () => 0.99 })).toBe(0);
  });

  it('waits at least as long as Retry-After asked', () => {
    expect(nextRetryDelayMs(2, { ...noJitter, retryAfterMs: 60 * SECOND })).toBe(60 * SECOND);
    // A shorter Retry-After does not shorten the schedule.
    expect(nextRetryDelayMs(4, { ...noJitter, retryAfterMs: 60 * SECOND })).toBe(30 * MINUTE);
    expect(nextRetryDelayMs(2, { ...noJitter, retryAfterMs: null })).toBe(5 * SECOND);
  });

  it('caps Retry-After at 24 hours', () => {
    expect(MAX_RETRY_AFTER_MS).toBe(24 * HOUR);
    expect(nextRetryDelayMs(2, { ...noJitter, retryAfterMs: 7 * 24 * HOUR })).toBe(24 * HOUR);
    expect(nextRetryDelayMs(2, { ...noJitter, retryAfterMs: Number.POSITIVE_INFINITY })).toBe(24 * HOUR);
  });

  it('ignores a negative or NaN Retry-After', () => {
    expect(nextRetryDelayMs(2, { ...noJitter, retryAfterMs: -1 })).toBe(5 * SECOND);
    expect(nextRetryDelayMs(2, { ...noJitter, retryAfterMs: Number.NaN })).toBe(5 * SECOND);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses attempt number %d', (attempt) => {
    expect(() => nextRetryDelayMs(attempt)).toThrow(RangeError);
  });
});
