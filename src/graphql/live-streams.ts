// The open subscriptions of this process (WebSocket subscriptions and SSE streams together). Each holds
// a slot counted against its user and its address, and knows the credential that opened it, so that
// revoking an API key or the expiry of an access token ends it. Counts are per process.
import type { Clock } from '../deps.js';

export type EndReason = 'revoked' | 'expired';

export const endMessage: Record<EndReason, string> = {
  revoked: 'credentials revoked',
  expired: 'access token expired',
};

const MAX_TIMER_MS = 2 ** 31 - 1;

export interface StreamOwner {
  userId: string | null;
  address: string;
  // The credential that opened it (an API key's id, an app's grant id), or the access token's expiry;
  // neither for an anonymous caller.
  credentialId: string | null;
  expiresAt: Date | null;
}

export interface Slot {
  // Idempotent; called whenever the subscription ends, however it ends.
  release(): void;
}

export interface LiveStreams {
  // A slot, or null when the user or the address already holds its limit. `end` closes the subscription.
  open(owner: StreamOwner, end: (reason: EndReason) => void): Slot | null;
  // Ends every subscription opened with this credential.
  revokeKey(credentialId: string): void;
  // Open subscriptions, for tests and metrics.
  count(): number;
}

export function createLiveStreams(opts: { perUser: number; perAddress: number; clock: Clock }): LiveStreams {
  interface Entry extends StreamOwner {
    end(reason: EndReason): void;
    timer: NodeJS.Timeout | null;
  }
  const entries = new Set<Entry>();
  const byUser = new Map<string, number>();
  const byAddress = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, n: number) => {
    const next = (map.get(key) ?? 0) + n;
    if (next > 0) map.set(key, next);
    else map.delete(key);
  };

  function remove(entry: Entry) {
    if (!entries.delete(entry)) return;
    if (entry.timer) clearTimeout(entry.timer);
    if (entry.userId) add(byUser, entry.userId, -1);
    add(byAddress, entry.address, -1);
  }

  function endEntry(entry: Entry, reason: EndReason) {
    if (!entries.has(entry)) return;
    remove(entry);
    entry.end(reason);
  }

  // Measured on the service's clock, so a token already past its expiry ends at once. A timer runs at
  // most ~24 days; a later expiry re-arms it.
  function armExpiry(entry: Entry, expiresAt: Date) {
    const ms = Math.max(0, expiresAt.getTime() - opts.clock.now().getTime());
    const step = Math.min(ms, MAX_TIMER_MS);
    entry.timer = setTimeout(() => (step < ms ? armExpiry(entry, expiresAt) : endEntry(entry, 'expired')), step);
    entry.timer.unref();
  }

  return {
    open(owner, end) {
      if (owner.userId && (byUser.get(owner.userId) ?? 0) >= opts.perUser) return null;
      if ((byAddress.get(owner.address) ?? 0) >= opts.perAddress) return null;
      const entry: Entry = { ...owner, end, timer: null };
      entries.add(entry);
      if (owner.userId) add(byUser, owner.userId, 1);
      add(byAddress, owner.address, 1);
      if (owner.expiresAt) armExpiry(entry, owner.expiresAt);
      return { release: () => remove(entry) };
    },
    revokeKey(credentialId) {
      for (const entry of [...entries]) if (entry.credentialId === credentialId) endEntry(entry, 'revoked');
    },
    count: () => entries.size,
  };
}
