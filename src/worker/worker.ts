// The job runner: graphile-worker on the service's own database (embedded PGlite included).
import { restoreAttemptsIfReplaced, useUpAttempts } from '../db/job-locks.js';
import { EventEmitter } from 'node:events';
import { run, runMigrations, type JobHelpers, type Runner, type TaskList, type WorkerEvents, type WorkerPool } from 'graphile-worker';
import type { Logger } from '../logger.js';
import type { Services } from '../services/index.js';
import { handlers, type JobHandler } from './handlers.js';
import { Logger as GraphileLogger } from 'graphile-worker';

export class RejectedJobPayloadError extends Error {
  constructor(job: string) {
    super(`payload of ${job} does not match its schema; not retried`);
    this.name = 'RejectedJobPayloadError';
  }
}

// A payload that fails its schema will not get better on retry. The job is failed for good but kept
// (last_error set, attempts used up) so that someone can look at it; graphile-worker never picks up a job
// whose attempts reached max_attempts. Its public permanently_fail_jobs skips locked jobs (this one is
// locked by us while it runs), hence the update of its table.
async function failForGood(helpers: JobHelpers): Promise<never> {
  await helpers.withPgClient((client) => useUpAttempts(client, helpers.job.id));
  throw new RejectedJobPayloadError(helpers.job.task_identifier);
}

// graphile-worker, asked to add a job under a key whose job is running, clears the running job's key and
// uses up its attempts (add_jobs in its SQL), then adds the new job. Should the running job then fail,
// graphile-worker would never retry it, and the new job may already have run and done nothing because
// the running one held its claim or lock: the work would be silently lost. So a job that fails after
// being replaced gets its own attempts back and retries as an unkeyed job, beside the new one; handlers
// are idempotent, so the two doing the same work is harmless. Only a job whose key was cleared is
// touched: once the key is gone, no later add_job can reach this row again.
async function keepRetriesIfReplaced(helpers: JobHelpers, logger: Logger): Promise<void> {
  const { job } = helpers;
  if (!job.key) return;
  const restored = await helpers.withPgClient((client) => restoreAttemptsIfReplaced(client, job.id, job.attempts));
  if (restored) {
    logger.warn({ job: job.task_identifier, jobId: job.id, jobKey: job.key }, 'a job replaced while running failed; it keeps its retries');
  }
}

export function taskList(list: JobHandler[], services: Services, logger: Logger): TaskList {
  return Object.fromEntries(
    list.map(({ spec, run }) => [
      spec.name,
      async (raw: unknown, helpers) => {
        const parsed = spec.payload.safeParse(raw);
        if (!parsed.success) {
          logger.error({ job: spec.name, jobId: helpers.job.id, issues: parsed.error.issues }, 'job payload rejected');
          return failForGood(helpers);
        }
        try {
          await run(services, parsed.data, helpers);
        } catch (error) {
          await keepRetriesIfReplaced(helpers, logger).catch((e: unknown) => logger.error({ err: e, jobId: helpers.job.id }, 'could not keep the retries of a replaced job'));
          throw error;
        }
      },
    ]),
  );
}

function graphileLogger(logger: Logger) {
  return new GraphileLogger(() => (level, message, meta) => {
    const fn = level === 'error' ? logger.error : level === 'warning' ? logger.warn : logger.debug;
    fn.call(logger, { worker: meta }, message);
  });
}

export async function installJobSchema(connectionString: string, logger: Logger): Promise<void> {
  await runMigrations({ connectionString, logger: graphileLogger(logger) });
}

export interface JobRunner {
  runner: Runner;
  // The id under which this process's worker pool locks the jobs it runs (graphile-worker's locked_by).
  poolId: string;
  // The pool itself: once a graceful stop has begun, runner.kill() no longer reaches it, but its
  // forcefulShutdown() still fails (and so unlocks) the jobs it runs.
  pool: WorkerPool;
}

// graphile-worker's settings as the service runs it (bench/ledger/service.ts measures graphile-worker
// alone with the same).
// - Named prepared statements where the service's own connections keep them (Database's
//   preparedStatements): each of the worker's connections then parses and plans its few statements once.
// - The local queue: the pool fetches due jobs for all its workers in one statement (per poll, per new
//   job notice, or when a worker is free and the queue is empty), instead of each worker polling on its
//   own and asking again after every job; locked by the pool's id, which crash recovery goes by.
// - Completions batched: the jobs that finish in the same turn of the event loop are removed in one
//   statement (delay 0) instead of one each. A job stays locked that much longer after it finished; a
//   crash in between runs it again, which every handler allows (handlers.ts), and a stop writes the batch.
export function workerPreset(opts: { concurrency: number; preparedStatements: boolean; stopGraceMs?: number }) {
  return {
    preparedStatements: opts.preparedStatements,
    localQueue: { size: opts.concurrency },
    completeJobBatchDelay: 0,
    ...(opts.stopGraceMs === undefined ? {} : { gracefulShutdownAbortTimeout: opts.stopGraceMs }),
  };
}

export async function startWorker(opts: {
  connectionString: string;
  services: Services;
  logger: Logger;
  concurrency: number;
  pollIntervalMs: number;
  // When a graceful stop signals the running jobs to abort.
  stopGraceMs: number;
  // Whether the worker's connections may keep named prepared statements (Database's preparedStatements).
  preparedStatements: boolean;
  events?: WorkerEvents;
}): Promise<JobRunner> {
  const events: WorkerEvents = opts.events ?? new EventEmitter();
  let pool: WorkerPool | null = null;
  const onPool = ({ workerPool }: { workerPool: WorkerPool }) => (pool = workerPool);
  events.on('pool:create', onPool);
  const runner = await run({
    connectionString: opts.connectionString,
    concurrency: opts.concurrency,
    pollInterval: opts.pollIntervalMs,
    noHandleSignals: true,
    preset: { worker: workerPreset(opts) },
    logger: graphileLogger(opts.logger),
    taskList: taskList(handlers, opts.services, opts.logger),
    events,
  });
  events.off('pool:create', onPool);
  if (!pool) throw new Error('graphile-worker started without announcing its worker pool');
  const started: WorkerPool = pool;
  return { runner, poolId: started.id, pool: started };
}
