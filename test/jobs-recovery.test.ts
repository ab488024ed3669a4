// Releasing the jobs of dead workers: with a PostgreSQL server only pools whose heartbeat went silent
// lose their locks; in embedded mode every lock left from before the start is released.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { createPrismaClient, type PrismaClient } from '../src/db/client.js';
import { createKysely, type Sql } from '../src/db/kysely.js';
import { createLogger } from '../src/logger.js';
import { expireTask } from '../src/jobs/specs/task-expire.js';
import { enqueue } from '../src/stores/job-store.js';
import { installJobSchema } from '../src/worker/worker.js';
import { releaseAllJobLocks, releaseDeadWorkersJobs } from '../src/db/job-locks.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';

let db: TestDatabase;
let prisma: PrismaClient;
let sql: Sql;

beforeAll(async () => {
  db = await createTestDatabase();
  await installJobSchema(db.url, createLogger('silent'));
  prisma = createPrismaClient(db.url, 2);
  sql = createKysely(db.url, 2);
});
afterAll(async () => {
  await prisma?.$disconnect();
  await sql?.destroy();
  await db?.close();
});
beforeEach(async () => {
  await prisma.$executeRaw`DELETE FROM graphile_worker._private_jobs`;
  await prisma.$executeRaw`DELETE FROM worker_heartbeats`;
});

// A job locked by `pool` `lockedSecondsAgo` seconds ago, as a worker that took it would leave it.
async function lockedJob(pool: string, lockedSecondsAgo: number, taskId: string): Promise<void> {
  await enqueue(sql, expireTask, { taskId }, { runAt: new Date(Date.now() + 3_600_000) });
  await prisma.$executeRaw`
    UPDATE graphile_worker._private_jobs SET locked_by = ${pool}, locked_at = now() - make_interval(secs => ${lockedSecondsAgo}::float8)
    WHERE payload->>'taskId' = ${taskId}`;
}

async function heartbeat(pool: string, secondsAgo: number): Promise<void> {
  await prisma.$executeRaw`
    INSERT INTO worker_heartbeats (pool_id, beat_at) VALUES (${pool}, now() - make_interval(secs => ${secondsAgo}::float8))
    ON CONFLICT (pool_id) DO UPDATE SET beat_at = excluded.beat_at`;
}

const lockedBy = async () =>
  (await prisma.$queryRaw<Array<{ locked_by: string }>>`SELECT locked_by FROM graphile_worker.jobs WHERE locked_by IS NOT NULL ORDER BY locked_by`).map(
    (r) => r.locked_by,
  );

it('releases only the jobs of pools silent past the limit, locked before it', async () => {
  await lockedJob('pool-alive', 120, 'tsk_a');
  await heartbeat('pool-alive', 1);
  await lockedJob('pool-dead', 120, 'tsk_b');
  await heartbeat('pool-dead', 120);
  await lockedJob('pool-never-beat', 120, 'tsk_c');
  // Locked a moment ago by a pool that has not written its first heartbeat yet.
  await lockedJob('pool-starting', 0, 'tsk_d');

  expect(await releaseDeadWorkersJobs(prisma, 30_000)).toBe(2);
  expect(await lockedBy()).toEqual(['pool-alive', 'pool-starting']);
  expect(await releaseDeadWorkersJobs(prisma, 30_000)).toBe(0);
});

it('releases every lock when the embedded database starts', async () => {
  await lockedJob('pool-1', 0, 'tsk_e');
  await lockedJob('pool-2', 600, 'tsk_f');
  await heartbeat('pool-1', 0);
  expect(await releaseAllJobLocks(prisma)).toBe(2);
  expect(await lockedBy()).toEqual([]);
  expect(await releaseAllJobLocks(prisma)).toBe(0);
});
