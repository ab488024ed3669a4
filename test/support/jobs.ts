// graphile-worker's queue as tests see it, so that a test moves a delayed job instead of waiting out its
// delay. graphile-worker 0.17 keeps jobs in graphile_worker._private_jobs (task_id → _private_tasks'
// identifier, the job's name); graphile_worker.jobs is the readable view of both.
import { sql } from 'kysely';
import pg from 'pg';
import { Prisma } from '../../src/generated/prisma/client.js';
import type { TestServer } from './server.js';
import { until } from './wait.js';

// A Prisma client, or a plain connection (queueAt) to a database another process serves.
type Db = { $executeRaw(query: Prisma.Sql): Promise<number>; $queryRaw<T>(query: Prisma.Sql): Promise<T> };

/** The queue of the database at `url` (a server process's), through one connection; end() when done. */
export async function queueAt(url: string): Promise<Db & { end(): Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    $executeRaw: async (query) => (await client.query(query.text, query.values)).rowCount ?? 0,
    $queryRaw: async <T>(query: Prisma.Sql) => (await client.query(query.text, query.values)).rows as T,
    end: () => client.end(),
  };
}

// `payload` picks jobs whose payload holds these fields (a delivery's { deliveryId }, a task's { taskId }).
export interface JobMatch {
  name: string;
  payload?: Record<string, unknown>;
}

const payloadHolds = (match: JobMatch) =>
  match.payload ? Prisma.sql`AND j.payload::jsonb @> ${JSON.stringify(match.payload)}::jsonb` : Prisma.empty;

/** Makes the matching jobs that wait for a later run_at due now; returns how many it moved. */
export function makeJobsDue(db: Db, match: JobMatch): Promise<number> {
  return db.$executeRaw(Prisma.sql`
    UPDATE graphile_worker._private_jobs AS j SET run_at = now()
    FROM graphile_worker._private_tasks AS t
    WHERE t.id = j.task_id AND t.identifier = ${match.name} AND j.locked_at IS NULL AND j.run_at > now()
      AND j.attempts < j.max_attempts ${payloadHolds(match)}`);
}

/** Waits until such a job is scheduled for later (a retry being written), then makes it due now. */
export async function runNextNow(db: Db, match: JobMatch): Promise<void> {
  await until(`a ${match.name} job scheduled for later`, async () => (await makeJobsDue(db, match)) > 0);
}

/**
 * Waits until no matching job is running or due: whatever they were about to do has been done. Jobs
 * scheduled for later (a retry, a claim's recheck) are not waited for.
 */
export async function untilNoJobDue(db: Db, match: JobMatch, timeoutMs?: number): Promise<void> {
  await until(
    `no ${match.name} job running or due`,
    async () => {
      const [row] = await db.$queryRaw<Array<{ n: number }>>(Prisma.sql`
        SELECT count(*)::int AS n FROM graphile_worker._private_jobs AS j
        JOIN graphile_worker._private_tasks AS t ON t.id = j.task_id
        WHERE t.identifier = ${match.name} ${payloadHolds(match)}
          AND (j.locked_at IS NOT NULL OR (j.run_at <= now() AND j.attempts < j.max_attempts))`);
      return row?.n === 0;
    },
    timeoutMs,
  );
}

// The worker's wake-ups (graphile-worker's NOTIFY on jobs:insert that announces new jobs; one for removed
// jobs says count -1 and wakes nothing) sent while `act` runs, once nothing else is due or running. A
// marker sent afterwards arrives after every notification committed before it.
export async function wakesDuring(server: TestServer, act: () => Promise<void>): Promise<Array<{ count: number }>> {
  const db = server.app.services.deps.sql;
  await until('no job due or running', async () => {
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM graphile_worker.jobs
      WHERE locked_at IS NOT NULL OR (run_at <= now() AND attempts < max_attempts)`.execute(db);
    return rows[0]!.n === 0;
  });
  const listener = new pg.Client({ connectionString: server.db.url });
  await listener.connect();
  try {
    const heard: string[] = [];
    listener.on('notification', (m) => heard.push(m.payload ?? ''));
    await listener.query('LISTEN "jobs:insert"');
    await act();
    await sql`SELECT pg_notify('jobs:insert', 'marker')`.execute(db);
    await until('the marker', () => heard.includes('marker'));
    return heard
      .slice(0, heard.indexOf('marker'))
      .map((payload) => JSON.parse(payload) as { count: number })
      .filter((n) => n.count > 0)
      .map(({ count }) => ({ count }));
  } finally {
    await listener.end();
  }
}

// A task's jobs (its delivery's, its expiry, its routing), by key.
export const jobsOfTask = (server: TestServer, taskId: string) =>
  sql<{ taskIdentifier: string; key: string; priority: number; maxAttempts: number; runAt: Date }>`
    SELECT task_identifier, key, priority, max_attempts, run_at FROM graphile_worker.jobs
    WHERE key IN (${`task.expire:${taskId}`}, ${`task.route:${taskId}`}) OR key IN (SELECT 'task.deliver:' || id FROM deliveries WHERE task_id = ${taskId})
    ORDER BY task_identifier`
    .execute(server.app.services.deps.sql)
    .then((r) => r.rows);
