// The job runner: graphile-worker on the service's own database (embedded PGlite included).
import { run, runMigrations, type Runner, type TaskList, type WorkerEvents } from 'graphile-worker';
import type { Logger } from '../logger.js';
import type { Services } from '../services/index.js';
import { jobs } from './index.js';
import { Logger as GraphileLogger } from 'graphile-worker';

function taskList(services: Services, logger: Logger): TaskList {
  return Object.fromEntries(
    jobs.map((job) => [
      job.name,
      async (raw: unknown, helpers) => {
        const parsed = job.payload.safeParse(raw);
        if (!parsed.success) {
          // A malformed payload will not improve on retry; record it and drop the job.
          logger.error({ job: job.name, issues: parsed.error.issues }, 'job payload rejected');
          return;
        }
        await job.run(services, parsed.data, helpers);
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

export async function startWorker(opts: {
  connectionString: string;
  services: Services;
  logger: Logger;
  concurrency: number;
  pollIntervalMs: number;
  // Job lifecycle events (the metrics listen to them).
  events?: WorkerEvents;
}): Promise<Runner> {
  return run({
    connectionString: opts.connectionString,
    concurrency: opts.concurrency,
    pollInterval: opts.pollIntervalMs,
    noHandleSignals: true,
    // Named prepared statements live in the session; the embedded database serves all connections from
    // one session, where two workers' statements of the same name would collide.
    preset: { worker: { preparedStatements: false } },
    logger: graphileLogger(opts.logger),
    taskList: taskList(opts.services, opts.logger),
    ...(opts.events ? { events: opts.events } : {}),
  });
}
