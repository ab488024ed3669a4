// Retention of the delivery log: attempts older than DELIVERY_RETENTION_DAYS go, and so does a finished
// delivery left without attempts. The task keeps its outcome (status, result, error): only the log of
// how it was delivered is pruned. A pending delivery is never removed, however old.
import type { Deps } from '../deps.js';
import { enqueue } from '../stores/job-store.js';
import { pruneDeliveryLog } from '../stores/delivery-store.js';
import { pruneDeliveries } from '../jobs/specs/delivery-prune.js';

export const PRUNE_INTERVAL_MS = 24 * 60 * 60 * 1000;

export function deliveryRetention(deps: Deps) {
  const { sql, config, clock, logger } = deps;
  const cutoff = (now: Date) => new Date(now.getTime() - config.deliveryOps.retentionDays * PRUNE_INTERVAL_MS);
  return {
    // Starts the daily chain: a no-op while a prune is pending.
    async schedule(): Promise<void> {
      await enqueue(sql, pruneDeliveries, {}, { runAt: new Date(clock.now().getTime() + PRUNE_INTERVAL_MS), jobKeyMode: 'preserve_run_at' });
    },

    // Job delivery.prune: schedules the next one first (a failure below cannot end the chain), then prunes.
    async prune(now = clock.now()): Promise<{ attempts: number; deliveries: number }> {
      await enqueue(sql, pruneDeliveries, {}, { runAt: new Date(now.getTime() + PRUNE_INTERVAL_MS), jobKeyMode: 'replace' });
      const before = cutoff(now);
      const { attempts, deliveries } = await pruneDeliveryLog(sql, before);
      if (attempts + deliveries > 0) logger.info({ attempts, deliveries }, 'pruned old delivery attempts');
      return { attempts, deliveries };
    },
  };
}

export type DeliveryRetention = ReturnType<typeof deliveryRetention>;
