// Starts this process's share of the job system: releases locks a crash left behind, runs the worker,
// beats its heartbeat (PostgreSQL server) and starts the health sweep's chain; stop() undoes it in order.
import type { WorkerEvents } from 'graphile-worker';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { Logger } from '../logger.js';
import type { Services } from '../services/index.js';
import { enqueue } from './enqueue.js';
import { healthSweep } from './specs/health-sweep.js';
import { releaseAllJobLocks, startHeartbeat, type Heartbeat } from './recovery.js';
import { startWorker } from './worker.js';

export interface RunningJobs {
  // Stops taking jobs, lets the running ones finish and waits until their completions are written.
  stop(): Promise<void>;
}

// graphile-worker records a finished job without awaiting the write, so stop() can return before it
// lands. Waiting (briefly) until no job is still locked keeps the database open for those writes.
async function jobCompletionsWritten(database: Database): Promise<void> {
  for (let waited = 0; waited < 2000; waited += 25) {
    const [row] = await database.prisma.$queryRaw<Array<{ locked: bigint }>>`
      SELECT count(*) AS locked FROM graphile_worker.jobs WHERE locked_at IS NOT NULL`.catch(() => [{ locked: 0n }]);
    if (!row || row.locked === 0n) return;
    await new Promise((r) => setTimeout(r, 25));
  }
}

export async function startJobs(opts: { config: Config; database: Database; services: Services; logger: Logger; events: WorkerEvents }): Promise<RunningJobs> {
  const { config, database, logger } = opts;
  if (database.embedded) {
    // This process owns the embedded database: a lock can only be left over from a crash.
    const released = await releaseAllJobLocks(database.prisma);
    if (released > 0) logger.warn({ released }, 'released jobs locked before a crash');
  }
  const worker = await startWorker({
    connectionString: database.url,
    services: opts.services,
    logger,
    concurrency: config.worker.concurrency,
    pollIntervalMs: config.worker.pollIntervalMs,
    events: opts.events,
  });
  let heartbeat: Heartbeat | null = null;
  if (!database.embedded) {
    heartbeat = await startHeartbeat({
      db: database.prisma,
      poolId: worker.poolId,
      intervalMs: config.worker.heartbeatIntervalMs,
      deadAfterMs: config.worker.deadAfterMs,
      logger,
    });
  }
  // The periodic health sweep reschedules itself; this starts the chain (a no-op when one is queued).
  await enqueue(database.prisma, healthSweep, {}, { runAt: new Date(opts.services.deps.clock.now().getTime() + config.health.checkIntervalSeconds * 1000), jobKeyMode: 'preserve_run_at' });
  // So does the daily pruning of old delivery attempts.
  await opts.services.retention.schedule();

  return {
    async stop() {
      await worker.runner.stop();
      await worker.runner.promise.catch(() => {});
      await jobCompletionsWritten(database);
      await heartbeat?.stop();
    },
  };
}
