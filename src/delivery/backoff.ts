// When to try a delivery again.
//
// The schedule spreads retries over about a day so an agent that is down for
// a deploy or an outage still gets its task; jitter stops every failed
// delivery from hitting a recovering agent in the same second.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Entry i is the wait after failed attempt i + 1 (5 s after the first); the last entry repeats. */
export const RETRY_DELAYS_MS: readonly number[] = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
];

/** Delays vary uniformly within ±this fraction. */
export const RETRY_JITTER_FRACTION = 0.2;

/** An endpoint cannot push its next attempt further out than this. */
export const MAX_RETRY_AFTER_MS = 24 * HOUR;

/** The whole schedule; services take it from Deps, so tests can run it with short waits. */
export interface RetrySchedule {
  /** Entry i is the wait after failed attempt i + 1; the last entry repeats. */
  delaysMs: readonly number[];
  jitterFraction: number;
  maxRetryAfterMs: number;
}

export const defaultRetrySchedule: RetrySchedule = {
  delaysMs: RETRY_DELAYS_MS,
  jitterFraction: RETRY_JITTER_FRACTION,
  maxRetryAfterMs: MAX_RETRY_AFTER_MS,
};

export type RetryDelayOptions = {
  /** defaultRetrySchedule unless given. */
  schedule?: RetrySchedule;
  /** Uniform in [0, 1); Math.random by default. */
  random?: () => number;
  /** What the endpoint asked for in Retry-After on the failed attempt. */
  retryAfterMs?: number | null;
};

/**
 * Milliseconds to wait before making attempt number `attemptNumber`
 * (1-based). Attempt 1 is immediate; attempt 2 comes about 5 s after attempt
 * 1 failed, attempt 3 about 5 min after attempt 2, and so on.
 */
export function nextRetryDelayMs(attemptNumber: number, opts: RetryDelayOptions = {}): number {
  if (!Number.isInteger(attemptNumber) || attemptNumber < 1) {
    throw new RangeError(`attempt number must be an integer of at least 1, got ${attemptNumber}`);
  }
  const { delaysMs, jitterFraction, maxRetryAfterMs } = opts.schedule ?? defaultRetrySchedule;
  const scheduled = attemptNumber === 1 ? 0 : (delaysMs[Math.min(attemptNumber - 2, delaysMs.length - 1)] ?? 0);
  const random = opts.random ?? Math.random;
  const jitterFactor = 1 + (random() * 2 - 1) * jitterFraction;
  const jittered = Math.round(scheduled * jitterFactor);
  return Math.max(jittered, retryAfterFloorMs(opts.retryAfterMs, maxRetryAfterMs));
}

function retryAfterFloorMs(retryAfterMs: number | null | undefined, maxRetryAfterMs: number): number {
  if (retryAfterMs === null || retryAfterMs === undefined || Number.isNaN(retryAfterMs)) return 0;
  return Math.min(Math.max(retryAfterMs, 0), maxRetryAfterMs);
}
