// Jobs left locked by a worker that died. graphile-worker only takes such a job back after its lock is
// four hours old, so a crash mid-delivery would leave the task matched until it expires undelivered.
//
// Embedded database: one process owns it (pid lock), so at start no other worker can be alive and every
// lock is stale. PostgreSQL server: other processes may be running; each one writes a heartbeat row
// for its worker pool every few seconds, and each one sweeps: jobs whose lock is older than the silence
// limit, held by a pool with no recent heartbeat, are released through graphile-worker's own
// force_unlock_workers. Times come from the database clock, so processes' clocks do not matter.
import type { Db } from './client.js';
import type { Logger } from '../logger.js';

// Embedded mode, before the worker starts: releases every job lock. Returns the number of jobs released.
export async function releaseAllJobLocks(db: Db): Promise<number> {
  const [row] = await db.$queryRaw<[{ released: bigint }]>`
    WITH stale AS (
      SELECT count(*) AS jobs, array_agg(DISTINCT locked_by) AS pools FROM graphile_worker.jobs WHERE locked_by IS NOT NULL
    )
    SELECT jobs AS released FROM stale, LATERAL (SELECT graphile_worker.force_unlock_workers(pools) WHERE pools IS NOT NULL) unlocked`;
  return Number(row?.released ?? 0);
}

// At a clean stop: releases the jobs this process's pool still holds. Returns the number released.
export async function releasePoolJobLocks(db: Db, poolId: string): Promise<number> {
  const [row] = await db.$queryRaw<[{ released: bigint }]>`
    WITH held AS (SELECT count(*) AS jobs FROM graphile_worker.jobs WHERE locked_by = ${poolId})
    SELECT jobs AS released FROM held, LATERAL (SELECT graphile_worker.force_unlock_workers(ARRAY[${poolId}]::text[]) WHERE jobs > 0) unlocked`;
  return Number(row?.released ?? 0);
}

// Releases the jobs of pools that have not beaten for `deadAfterMs`. Returns the number of jobs released.
export async function releaseDeadWorkersJobs(db: Db, deadAfterMs: number): Promise<number> {
  const [row] = await db.$queryRaw<[{ released: bigint }]>`
    WITH silent AS (
      SELECT count(*) AS jobs, array_agg(DISTINCT j.locked_by) AS pools
      FROM graphile_worker.jobs j
      WHERE j.locked_by IS NOT NULL
        AND j.locked_at < now() - make_interval(secs => ${deadAfterMs / 1000}::float8)
        AND NOT EXISTS (
          SELECT 1 FROM worker_heartbeats h
          WHERE h.pool_id = j.locked_by AND h.beat_at >= now() - make_interval(secs => ${deadAfterMs / 1000}::float8)
        )
    )
    SELECT jobs AS released FROM silent, LATERAL (SELECT graphile_worker.force_unlock_workers(pools) WHERE pools IS NOT NULL) unlocked`;
  return Number(row?.released ?? 0);
}

async function beat(db: Db, poolId: string): Promise<void> {
  await db.$executeRaw`
    INSERT INTO worker_heartbeats (pool_id, beat_at) VALUES (${poolId}, now())
    ON CONFLICT (pool_id) DO UPDATE SET beat_at = now()`;
}

export interface Heartbeat {
  stop(): Promise<void>;
}

// Beats for this process's pool and sweeps for dead ones, every `intervalMs`.
export async function startHeartbeat(opts: { db: Db; poolId: string; intervalMs: number; deadAfterMs: number; logger: Logger }): Promise<Heartbeat> {
  const { db, poolId, logger } = opts;
  let running: Promise<void> = Promise.resolve();
  const tick = async () => {
    try {
      await beat(db, poolId);
      const released = await releaseDeadWorkersJobs(db, opts.deadAfterMs);
      if (released > 0) logger.warn({ released }, 'released the jobs of a worker that stopped beating');
      // Rows of pools silent for much longer than the limit are of no more use.
      await db.$executeRaw`DELETE FROM worker_heartbeats WHERE beat_at < now() - make_interval(secs => ${(opts.deadAfterMs * 10) / 1000}::float8)`;
    } catch (error) {
      logger.warn({ err: error }, 'worker heartbeat failed');
    }
  };
  await tick();
  const timer = setInterval(() => {
    running = tick();
  }, opts.intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
      await db.$executeRaw`DELETE FROM worker_heartbeats WHERE pool_id = ${poolId}`.catch(() => {});
    },
  };
}

// How many jobs the pool still holds locked.
export async function lockedJobCount(db: Db, poolId: string): Promise<number> {
  const [row] = await db.$queryRaw<Array<{ locked: bigint }>>`SELECT count(*) AS locked FROM graphile_worker.jobs WHERE locked_by = ${poolId}`;
  return Number(row?.locked ?? 0);
}

// The jobs due now and not taken, and how long the oldest of them has waited (for /metrics).
export async function dueJobs(db: Db): Promise<{ due: number; oldestDueSeconds: number }> {
  const [row] = await db.$queryRaw<Array<{ due: bigint; oldest: number | null }>>`
    SELECT count(*) AS due, EXTRACT(EPOCH FROM now() - min(run_at))::float8 AS oldest
    FROM graphile_worker.jobs
    WHERE run_at <= now() AND locked_at IS NULL AND attempts < max_attempts`;
  return { due: Number(row?.due ?? 0), oldestDueSeconds: Math.max(0, row?.oldest ?? 0) };
}

// A job's own row in graphile-worker's table, through the client its helpers lend (helpers.withPgClient).
type PgQueryable = { query(text: string, values: unknown[]): Promise<{ rowCount: number | null }> };

// The running job is failed for good: its attempts are used up.
export async function useUpAttempts(client: PgQueryable, jobId: string): Promise<void> {
  await client.query('UPDATE graphile_worker._private_jobs SET max_attempts = attempts WHERE id = $1', [jobId]);
}

// The running job, whose key another add_job cleared (and used up its attempts), gets `attempts` back;
// false when it was not replaced.
export async function restoreAttemptsIfReplaced(client: PgQueryable, jobId: string, attempts: number): Promise<boolean> {
  const result = await client.query(
    'UPDATE graphile_worker._private_jobs SET attempts = $2 WHERE id = $1 AND key IS NULL AND attempts >= max_attempts AND $2 < max_attempts',
    [jobId, attempts],
  );
  return (result.rowCount ?? 0) > 0;
}
