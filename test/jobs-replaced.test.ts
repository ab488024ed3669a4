// A keyed job is never silently lost. graphile-worker, when a job is added under the key of a job that is
// running, clears the running job's key and uses up its attempts; the worker gives such a job its retries
// back when it fails. And every keyed job kind's key covers its whole payload, so replacing a pending job
// never drops work the old payload asked for.
import { Logger as WorkerLogger, run, type Runner } from 'graphile-worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createPrismaClient } from '../src/db/client.js';
import { createKysely, type Sql } from '../src/db/kysely.js';
import { enqueue } from '../src/stores/job-store.js';
import { handlers, type JobHandler } from '../src/worker/handlers.js';
import { defineJob, jobKey } from '../src/jobs/spec.js';
import { installJobSchema, taskList } from '../src/worker/worker.js';
import { createLogger } from '../src/logger.js';
import type { Services } from '../src/services/index.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { until } from './support/wait.js';

const keyed = defineJob({ name: 'test.keyed', payload: z.object({ subject: z.string() }), subject: (p) => p.subject, maxAttempts: 5 });

interface JobRow {
  id: string;
  key: string | null;
  attempts: number;
  max_attempts: number;
  locked_at: Date | null;
  last_error: string | null;
  run_at: Date;
}

describe('a keyed job replaced while it runs', () => {
  let db: TestDatabase;
  let prisma: ReturnType<typeof createPrismaClient>;
  let sql: Sql;
  let runner: Runner;
  const runs: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));

  beforeAll(async () => {
    db = await createTestDatabase();
    const logger = createLogger('silent');
    await installJobSchema(db.url, logger);
    prisma = createPrismaClient(db.url, 2);
    sql = createKysely(db.url, 2);
    const handler = {
      spec: keyed,
      async run(_services: Services, _payload: { subject: string }, helpers: { job: { id: string } }) {
        runs.push(helpers.job.id);
        if (runs.length === 1) {
          await gate;
          throw new Error('the first run fails');
        }
      },
    } as unknown as JobHandler;
    runner = await run({
      connectionString: db.url,
      concurrency: 2,
      pollInterval: 50,
      noHandleSignals: true,
      preset: { worker: { preparedStatements: false } },
      logger: new WorkerLogger(() => () => {}),
      taskList: taskList([handler], {} as Services, logger),
    });
  });
  afterAll(async () => {
    await runner?.stop();
    await prisma?.$disconnect();
    await sql?.destroy();
    await db?.close();
  });

  const row = async (id: string) =>
    (await prisma.$queryRaw<JobRow[]>`SELECT id::text, key, attempts, max_attempts, locked_at, last_error, run_at FROM graphile_worker.jobs WHERE id = ${id}::bigint`)[0];

  it('keeps its retries when it fails, and the job that replaced it still runs', async () => {
    await enqueue(sql, keyed, { subject: 'x' });
    const first = await until('the first run to start', () => runs[0]);
    // Added again while the first runs: the new job is due in an hour.
    await enqueue(sql, keyed, { subject: 'x' }, { runAt: new Date(Date.now() + 3_600_000) });
    const replaced = await row(first);
    // What graphile-worker does to the running job: key cleared, attempts used up.
    expect(replaced).toMatchObject({ key: null, attempts: replaced!.max_attempts });
    const [pending] = await prisma.$queryRaw<JobRow[]>`SELECT id::text, key, attempts, max_attempts FROM graphile_worker.jobs WHERE key = ${jobKey(keyed, { subject: 'x' })}`;
    expect(pending).toBeDefined();
    expect(pending!.id).not.toBe(first);

    release();
    const failed = await until('the first run to fail', async () => {
      const r = await row(first);
      return r && r.last_error && !r.locked_at ? r : false;
    });
    expect(failed.last_error).toMatch(/first run fails/);
    // It will be retried: attempts left, on graphile-worker's backoff, without a key.
    expect(failed.key).toBeNull();
    expect(failed.attempts).toBe(1);
    expect(failed.attempts).toBeLessThan(failed.max_attempts);

    // Its retry (brought forward instead of waited for) runs and completes.
    await prisma.$executeRaw`UPDATE graphile_worker._private_jobs SET run_at = now() WHERE id = ${first}::bigint`;
    await until('the retry to complete', async () => !(await row(first)));
    expect(runs.filter((id) => id === first)).toHaveLength(2);
    // The replacement is still pending under the key.
    expect(await row(pending!.id)).toMatchObject({ key: jobKey(keyed, { subject: 'x' }), attempts: 0 });
  });
});

describe('job keys', () => {
  // add_job under a key replaces a pending job's payload: a field the key does not name would be lost.
  it('name every field of every keyed job kind’s payload', () => {
    for (const { spec } of handlers) {
      if (!spec.subject) {
        expect(Object.keys((spec.payload as z.ZodObject).shape), spec.name).toEqual([]);
        continue;
      }
      const shape = (spec.payload as z.ZodObject).shape as Record<string, z.ZodType>;
      const fields = Object.keys(shape);
      // Two values each field takes (strings or whole numbers in every payload so far).
      const values = (f: string): [unknown, unknown] => (shape[f]!.safeParse('a').success ? ['a', 'b'] : [1, 2]);
      const base = Object.fromEntries(fields.map((f) => [f, values(f)[0]]));
      for (const field of fields) {
        const changed = { ...base, [field]: values(field)[1] };
        expect(spec.subject(spec.payload.parse(changed)), `${spec.name}.${field}`).not.toBe(spec.subject(spec.payload.parse(base)));
      }
    }
  });
});
