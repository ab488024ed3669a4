// Starts this process's share of the job system: releases locks a crash left behind, runs the worker,
// beats its heartbeat (PostgreSQL server) and starts the health sweep's chain; stop() undoes it in order.
import type { WorkerEvents } from 'graphile-worker';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { Logger } from '../logger.js';
import type { Services } from '../services/index.js';
import { enqueue } from '../stores/job-store.js';
import { healthSweep } from '../jobs/specs/health-sweep.js';
import { lockedJobCount, releaseAllJobLocks, releasePoolJobLocks, startHeartbeat, type Heartbeat } from '../db/job-locks.js';
import { startWorker } from './worker.js';

export interface RunningJobs {
  // Stops taking jobs, lets the running ones finish and waits until their completions are written.
  stop(): Promise<void>;
}

// A clean stop waits WORKER_STOP_GRACE_MS for the running jobs to finish by themselves; graphile-worker
// signals them to abort at the same time (helpers.abortSignal). A job still running after that, such as a
// delivery waiting on an endpoint that never answers, is failed through graphile-worker's forceful
// shutdown: its lock is released and it is retried at the next start, which then has no "crash" to
// recover from. The forceful shutdown itself gets as long again, at least a second.

// graphile-worker records a finished job without awaiting the write, so stop() can return before it
// lands. Waiting (briefly) until none of this pool's jobs is still locked keeps the database open for those writes.
async function jobCompletionsWritten(database: Database, poolId: string): Promise<void> {
  for (let waited = 0; waited < 2000; waited += 25) {
    if ((await lockedJobCount(database.prisma, poolId).catch(() => 0)) === 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
}

// Whether `work` settled within `ms`.
async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  return Promise.race([work.then(() => true), late]).finally(() => clearTimeout(timer));
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
    stopGraceMs: config.worker.stopGraceMs,
    preparedStatements: database.preparedStatements,
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
  await enqueue(database.sql, healthSweep, {}, { runAt: new Date(opts.services.deps.clock.now().getTime() + config.health.checkIntervalSeconds * 1000), jobKeyMode: 'preserve_run_at' });
  // So does the daily pruning of old delivery attempts.
  await opts.services.retention.schedule();
  await opts.services.files.schedule();

  return {
    async stop() {
      const stopped = worker.runner.stop().then(
        () => true,
        () => true,
      );
      if (!(await within(stopped, config.worker.stopGraceMs))) {
        logger.warn('jobs still running at shutdown are stopped; they run again at the next start');
        await within(
          Promise.resolve()
            .then(() => worker.pool.forcefulShutdown('the service is shutting down'))
            .catch((error: unknown) => logger.warn({ err: error }, 'forced job shutdown failed')),
          Math.max(config.worker.stopGraceMs, 1000),
        );
      }
      // A job that ignored the stop may keep the runner's promise open; the process is leaving anyway.
      await within(worker.runner.promise.catch(() => {}), 1000);
      await jobCompletionsWritten(database, worker.poolId);
      // Whatever this pool still holds (a forced failure that could not be written) is let go too: this
      // process will not finish it, and the next start must not take it for a crash.
      const released = await releasePoolJobLocks(database.prisma, worker.poolId).catch(() => 0);
      if (released > 0) logger.warn({ released }, 'released the locks of jobs this process could not finish');
      await heartbeat?.stop();
    },
  };
}
