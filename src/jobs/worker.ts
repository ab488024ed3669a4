// The job runner: graphile-worker on the service's own database (embedded PGlite included).
import { EventEmitter } from 'node:events';
import { run, runMigrations, type JobHelpers, type Runner, type TaskList, type WorkerEvents } from 'graphile-worker';
import type { Logger } from '../logger.js';
import type { Services } from '../services/index.js';
import { handlers } from './handlers.js';
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
  await helpers.withPgClient((client) =>
    client.query('UPDATE graphile_worker._private_jobs SET max_attempts = attempts WHERE id = $1', [helpers.job.id]),
  );
  throw new RejectedJobPayloadError(helpers.job.task_identifier);
}

function taskList(services: Services, logger: Logger): TaskList {
  return Object.fromEntries(
    handlers.map(({ spec, run }) => [
      spec.name,
      async (raw: unknown, helpers) => {
        const parsed = spec.payload.safeParse(raw);
        if (!parsed.success) {
          logger.error({ job: spec.name, jobId: helpers.job.id, issues: parsed.error.issues }, 'job payload rejected');
          return failForGood(helpers);
        }
        await run(services, parsed.data, helpers);
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
}

export async function startWorker(opts: {
  connectionString: string;
  services: Services;
  logger: Logger;
  concurrency: number;
  pollIntervalMs: number;
  events?: WorkerEvents;
}): Promise<JobRunner> {
  const events: WorkerEvents = opts.events ?? new EventEmitter();
  let poolId: string | null = null;
  const onPool = ({ workerPool }: { workerPool: { id: string } }) => (poolId = workerPool.id);
  events.on('pool:create', onPool);
  const runner = await run({
    connectionString: opts.connectionString,
    concurrency: opts.concurrency,
    pollInterval: opts.pollIntervalMs,
    noHandleSignals: true,
    // Named prepared statements live in the session; the embedded database serves all connections from
    // one session, where two workers' statements of the same name would collide.
    preset: { worker: { preparedStatements: false } },
    logger: graphileLogger(opts.logger),
    taskList: taskList(opts.services, opts.logger),
    events,
  });
  events.off('pool:create', onPool);
  if (!poolId) throw new Error('graphile-worker started without announcing its worker pool');
  return { runner, poolId };
}
