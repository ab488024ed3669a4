// Retention of the delivery log: attempts older than DELIVERY_RETENTION_DAYS go, and so does a finished
// delivery left without attempts. The task keeps its outcome (status, result, error): only the log of
// how it was delivered is pruned. A pending delivery is never removed, however old.
import type { Deps } from '../deps.js';
import { enqueue } from '../jobs/enqueue.js';
import { pruneDeliveries } from '../jobs/specs/delivery-prune.js';

export const PRUNE_INTERVAL_MS = 24 * 60 * 60 * 1000;

export function deliveryRetention(deps: Deps) {
  const { prisma, config, clock, logger } = deps;
  const cutoff = (now: Date) => new Date(now.getTime() - config.deliveryOps.retentionDays * PRUNE_INTERVAL_MS);
  return {
    // Starts the daily chain: a no-op while a prune is pending.
    async schedule(): Promise<void> {
      await enqueue(prisma, pruneDeliveries, {}, { runAt: new Date(clock.now().getTime() + PRUNE_INTERVAL_MS), jobKeyMode: 'preserve_run_at' });
    },

    // Job delivery.prune: schedules the next one first (a failure below cannot end the chain), then prunes.
    async prune(now = clock.now()): Promise<{ attempts: number; deliveries: number }> {
      await enqueue(prisma, pruneDeliveries, {}, { runAt: new Date(now.getTime() + PRUNE_INTERVAL_MS), jobKeyMode: 'replace' });
      const before = cutoff(now);
      const attempts = await prisma.deliveryAttempt.deleteMany({ where: { at: { lt: before } } });
      const deliveries = await prisma.delivery.deleteMany({
        where: { status: { not: 'pending' }, updatedAt: { lt: before }, attempts: { none: {} } },
      });
      if (attempts.count + deliveries.count > 0) logger.info({ attempts: attempts.count, deliveries: deliveries.count }, 'pruned old delivery attempts');
      return { attempts: attempts.count, deliveries: deliveries.count };
    },
  };
}

export type DeliveryRetention = ReturnType<typeof deliveryRetention>;
