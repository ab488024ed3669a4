// The guarded exchanges' name resolution (guarded-request.ts), with each host's answer kept for a short
// time, so that the attempts of a delivery, an A2A call's requests or a burst of pings do not each wait
// for a lookup.
//
// What is kept is the resolver's answer, not a verdict: every exchange checks the addresses it is handed
// (cached or fresh) against the address policy, and dials only those that passed. A name that starts to
// resolve to a private address is refused once its answer expires, never later than TTL_MS. A failed
// lookup is not kept (the next attempt asks again), and the lookups of one name under way at once are one.
import type { Clock } from '../deps.js';
import type { ResolveHost } from './url-guard.js';

export interface DnsCacheLimits {
  // How long an answer is used, on the service's clock.
  ttlMs: number;
  // Hosts kept at most; past that the answer kept longest is dropped (it is the next to expire anyway).
  maxEntries: number;
}

// Short against the TTLs agents' DNS usually has, so a moved endpoint is followed within half a minute.
export const DNS_CACHE_LIMITS: DnsCacheLimits = { ttlMs: 30_000, maxEntries: 1_000 };

export function cachedResolver(resolve: ResolveHost, clock: Clock, limits: DnsCacheLimits = DNS_CACHE_LIMITS): ResolveHost {
  // In the order they were looked up (a renewed answer moves to the end), so the first is the oldest.
  const answers = new Map<string, { addresses: string[]; at: number }>();
  const pending = new Map<string, Promise<string[]>>();

  return (hostname) => {
    const now = clock.now().getTime();
    const kept = answers.get(hostname);
    // A clock moved back (a test's) does not stretch an answer's life.
    if (kept && now >= kept.at && now - kept.at < limits.ttlMs) return Promise.resolve(kept.addresses);
    const underWay = pending.get(hostname);
    if (underWay) return underWay;

    const settled = () => pending.delete(hostname);
    const lookup = resolve(hostname).then(
      (addresses) => {
        settled();
        answers.delete(hostname);
        // An empty answer is a failure the caller reports; it is not kept either.
        if (addresses.length > 0) answers.set(hostname, { addresses, at: now });
        if (answers.size > limits.maxEntries) answers.delete(answers.keys().next().value!);
        return addresses;
      },
      (error: unknown) => {
        settled();
        throw error;
      },
    );
    pending.set(hostname, lookup);
    return lookup;
  };
}
