// The CPU one wake of the job worker costs this process when it finds nothing to run (a NOTIFY for a job
// due later): graphile-worker with the service's settings (workerPreset), on a scratch PostgreSQL
// database with no due job, woken `--wakes` times one after another; each wake is a NOTIFY on
// jobs:insert as add_job sends it, followed until the worker's fetch completes. The same NOTIFYs with the
// worker stopped are the baseline (sending them and hearing nothing); rounds alternate the two.
//
//   npx tsx bench/empty-wake.ts [--wakes 2000] [--rounds 3] [--postgres URL]
import { EventEmitter } from 'node:events';
import { parseArgs } from 'node:util';
import { Logger, run, runMigrations, type WorkerEvents } from 'graphile-worker';
import pg from 'pg';
import { workerPreset } from '../src/worker/worker.js';
import { percentile } from './measure.js';
import { scratchWorld } from './scratch.js';

const { values: args } = parseArgs({
  options: {
    wakes: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '3' },
    postgres: { type: 'string', default: process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/test' },
  },
});
const wakes = Number(args.wakes);
const rounds = Number(args.rounds);
const quiet = new Logger(() => () => {});
const cpuUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

async function main() {
  const world = await scratchWorld(args.postgres!, 'wake');
  const sender = new pg.Client({ connectionString: world.databaseUrl });
  try {
    await runMigrations({ connectionString: world.databaseUrl, logger: quiet });
    await sender.connect();
    const notify = () => sender.query(`SELECT pg_notify('jobs:insert', '{"r":' || random()::text || ',"count":1}')`);

    const withWorker = async (): Promise<number> => {
      const events: WorkerEvents = new EventEmitter();
      // A wake whose fetch does not come within a second (none should) is counted and not waited for.
      let missed = 0;
      const fetch = () =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            missed++;
            resolve();
          }, 1000);
          events.once('localQueue:getJobs:complete', () => {
            clearTimeout(timer);
            resolve();
          });
        });
      const first = fetch();
      const runner = await run({
        connectionString: world.databaseUrl,
        concurrency: 4,
        pollInterval: 600_000,
        noHandleSignals: true,
        preset: { worker: workerPreset({ concurrency: 4, preparedStatements: true }) },
        taskList: { bench_nothing: async () => {} },
        logger: quiet,
        events,
      });
      try {
        // The first fetch at start, then each wake's.
        await first;
        const start = cpuUs();
        for (let i = 0; i < wakes; i++) {
          const fetched = fetch();
          await notify();
          await fetched;
        }
        if (missed > 0) process.stderr.write(`${missed} wakes without a fetch\n`);
        return (cpuUs() - start) / wakes;
      } finally {
        await runner.stop();
      }
    };
    const alone = async (): Promise<number> => {
      const start = cpuUs();
      for (let i = 0; i < wakes; i++) await notify();
      return (cpuUs() - start) / wakes;
    };

    const woken: number[] = [];
    const baseline: number[] = [];
    await withWorker();
    for (let round = 1; round <= rounds; round++) {
      woken.push(await withWorker());
      baseline.push(await alone());
      process.stderr.write(`round ${round}: ${woken.at(-1)!.toFixed(0)} µs per wake with the worker, ${baseline.at(-1)!.toFixed(0)} µs per NOTIFY alone\n`);
    }
    const median = (v: number[]) => percentile([...v].sort((a, b) => a - b), 50);
    console.log(`an empty wake of the worker: ${(median(woken) - median(baseline)).toFixed(0)} µs of this process's CPU (medians of ${rounds} rounds of ${wakes}: ${median(woken).toFixed(0)} with the worker, ${median(baseline).toFixed(0)} sending alone)`);
  } finally {
    await sender.end().catch(() => {});
    await world.drop();
  }
}

await main();
