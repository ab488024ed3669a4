// A fixed one-minute window per caller (credential, else address), kept in memory. It protects one
// process; several processes behind a balancer each allow the limit.
export interface RateLimiter {
  // Returns null when allowed, else the seconds until the window resets.
  take(key: string): number | null;
}

export function createRateLimiter(perMinute: number, now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  let lastSweep = now();
  return {
    take(key) {
      if (perMinute === 0) return null;
      const t = now();
      if (t - lastSweep > 60_000) {
        for (const [k, w] of windows) if (t - w.start >= 60_000) windows.delete(k);
        lastSweep = t;
      }
      let w = windows.get(key);
      if (!w || t - w.start >= 60_000) {
        w = { start: t, count: 0 };
        windows.set(key, w);
      }
      w.count++;
      return w.count > perMinute ? Math.ceil((w.start + 60_000 - t) / 1000) : null;
    },
  };
}
