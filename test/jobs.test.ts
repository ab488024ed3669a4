// Jobs are typed definitions: a payload is checked when it is queued, a row that still does not fit its
// schema fails for good and stays for inspection, and expiry runs before a backlog of deliveries.
import { EventEmitter } from 'node:events';
import type { WorkerEvents } from 'graphile-worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKysely } from '../src/db/kysely.js';
import { deliverTask } from '../src/jobs/specs/task-deliver.js';
import { expireTask } from '../src/jobs/specs/task-expire.js';
import { enqueue, InvalidJobPayloadError } from '../src/stores/job-store.js';
import { createTestDatabase } from './support/database.js';
import { startTestServer, type TestServer } from './support/server.js';
import { until } from './support/wait.js';

describe('job payloads', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses to queue a payload that does not match the job schema', async () => {
    await expect(enqueue(server.sql, deliverTask, { deliveryId: 42 } as never)).rejects.toThrow(InvalidJobPayloadError);
    await expect(enqueue(server.sql, expireTask, {} as never)).rejects.toThrow(/taskId/);
    const [row] = await server.prisma.$queryRaw<[{ n: bigint }]>`SELECT count(*) AS n FROM graphile_worker.jobs`;
    // Only the periodic jobs the server schedules for itself are queued (health sweep, delivery pruning, files sweep).
    const [sweeps] = await server.prisma.$queryRaw<[{ n: bigint }]>`SELECT count(*) AS n FROM graphile_worker.jobs WHERE task_identifier IN ('health.sweep', 'delivery.prune', 'files.sweep')`;
    expect(row.n).toBe(sweeps.n);
  });

  it('fails a queued row whose payload does not fit, keeps it with its error, and does not retry it', async () => {
    const [added] = await server.prisma.$queryRaw<[{ id: bigint }]>`
      SELECT id FROM graphile_worker.add_job('task.expire', '{"task": "tsk_x"}'::json, max_attempts => 5)`;
    const failed = await until('the malformed job to fail', async () => {
      const [job] = await server.prisma.$queryRaw<Array<{ attempts: number; max_attempts: number; last_error: string | null; locked_at: Date | null }>>`
        SELECT attempts, max_attempts, last_error, locked_at FROM graphile_worker.jobs WHERE id = ${added.id}`;
      if (!job) throw new Error('the malformed job vanished');
      return job.last_error !== null && job.locked_at === null ? job : false;
    });
    expect(failed.last_error).toMatch(/does not match its schema/);
    // Attempts used up: graphile-worker will not pick it up again.
    expect(failed.attempts).toBe(failed.max_attempts);
  });
});

describe('job priorities', () => {
  it('runs a due expiry before a backlog of due deliveries queued earlier', async () => {
    const db = await createTestDatabase();
    const sql = createKysely(db.url, 2);
    // A first start installs graphile-worker's schema; the queue is filled while no worker runs.
    const installer = await startTestServer({}, { db });
    await installer.close();
    const past = (ms: number) => new Date(Date.now() - ms);
    for (let i = 0; i < 6; i++) {
      await enqueue(sql, deliverTask, { deliveryId: `dlv_backlog_${i}` }, { runAt: past(60_000) });
    }
    // Due later than every delivery, so only its priority can put it first.
    await enqueue(sql, expireTask, { taskId: 'tsk_due' }, { runAt: past(1_000) });

    const events: WorkerEvents = new EventEmitter();
    const started: string[] = [];
    events.on('job:start', ({ job }) => started.push(job.task_identifier));
    const server = await startTestServer({ WORKER_CONCURRENCY: '1' }, { db, jobEvents: events });
    try {
      await until('the queued jobs to run', () => started.filter((name) => name !== 'health.sweep').length >= 7);
      expect(started.filter((name) => name !== 'health.sweep')).toEqual(['task.expire', ...Array(6).fill('task.deliver')]);
    } finally {
      await server.close();
      await sql.destroy();
      await db.close();
    }
  });
});
