// New jobs wake the worker by NOTIFY on both databases, so a task reaches its agent without waiting for
// the next poll. The poll here is a minute apart: a delivery that came only by polling would miss the
// test's deadline. On the embedded database this relies on the socket server passing notifications to
// the connections that listen (db/notification-relay.ts).
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, it } from 'vitest';
import { newId } from '../src/ids.js';
import { expireTask } from '../src/jobs/specs/task-expire.js';
import { jobsCall, queuedJob } from '../src/stores/job-store.js';
import { applyMove } from '../src/stores/task-store.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { describe, expect, testWith } from './support/fixtures.js';
import { jobsOfTask, wakesDuring } from './support/jobs.js';
import { until } from './support/wait.js';

const test = testWith({ serverEnv: { WORKER_POLL_INTERVAL_MS: '60000' }, agentProfile: { name: 'Woken', capabilities: ['woken'] } });

describe('job pickup', () => {
  test('delivers new tasks without waiting for the poll', async ({ server, requester, agent: { http: agent } }) => {
    const requesterKey = requester.apiKey;
    // The worker's first poll at start has passed; each task's job must wake it.
    for (let i = 0; i < 3; i++) {
      const created = await server.api.post('/v1/tasks', { key: requesterKey, body: { title: `Woken ${i}`, description: 'd', capabilities: ['woken'] } });
      expect(created.status).toBe(201);
      const id = created.body.data.id as string;
      await until(`the delivery of task ${i}`, () => agent.received.find((d) => d.body.taskId === id), 10_000);
    }
  });
});

describe('wake-ups per write', () => {
  test('a free task\'s create wakes the worker once, for its delivery and its expiry an hour later', async ({ server, requester, agent: { http: agent } }) => {
    const release = agent.hold();
    try {
      let id = '';
      const wakes = await wakesDuring(server, async () => {
        const created = await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 'Once', description: 'd', capabilities: ['woken'], expiresInMinutes: 60 } });
        expect(created.status).toBe(201);
        id = created.body.data.id as string;
      });
      expect(wakes).toEqual([{ count: 2 }]);
      const task = await server.app.services.deps.sql.selectFrom('tasks').select(['expiresAt']).where('id', '=', id).executeTakeFirstOrThrow();
      const jobs = await jobsOfTask(server, id);
      expect(jobs.map(({ runAt: _, ...job }) => job)).toEqual([
        { taskIdentifier: 'task.deliver', key: expect.stringMatching(/^task\.deliver:dlv_/), priority: 0, maxAttempts: 25 },
        { taskIdentifier: 'task.expire', key: `task.expire:${id}`, priority: -10, maxAttempts: 25 },
      ]);
      expect(jobs[1]!.runAt).toEqual(task.expiresAt);
      await until('the delivery', () => agent.received.find((d) => d.body.taskId === id));
    } finally {
      release();
    }
  });

  test('a task no agent can take wakes the worker once, for its expiry and its next routing', async ({ server, requester }) => {
    let id = '';
    const wakes = await wakesDuring(server, async () => {
      const created = await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 'Nobody', description: 'd', capabilities: ['nobody-has-this'] } });
      expect(created.status).toBe(201);
      expect(created.body.data.status).toBe('pending');
      id = created.body.data.id as string;
    });
    expect(wakes).toEqual([{ count: 2 }]);
    const jobs = await jobsOfTask(server, id);
    expect(jobs.map((job) => job.key)).toEqual([`task.expire:${id}`, `task.route:${id}`]);
    expect(jobs.every((job) => job.runAt.getTime() > Date.now())).toBe(true);
  });

  test('jobs added together ride on their write: none when the move does not apply', async ({ server, requester }) => {
    const db = server.app.services.deps.sql;
    const created = await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 'Not moved', description: 'd', capabilities: ['nobody-has-this'] } });
    const id = created.body.data.id as string;
    const later = new Date(Date.now() + 3_600_000);
    const other = newId('tsk');
    const now = new Date();
    // From a state the task is not in: the update matches no row.
    const moved = await applyMove(db, {
      taskId: id,
      action: 'start',
      from: 'in_progress',
      to: 'in_progress',
      now,
      changes: {},
      history: { id: newId('evt'), actor: 'system', actorId: null, note: null, data: undefined },
      notify: null,
      removeJobKey: null,
      jobs: [jobsCall([queuedJob(expireTask, { taskId: other }, { runAt: later })])],
    });
    expect(moved).toBeNull();
    const { rows } = await sql`SELECT id FROM graphile_worker.jobs WHERE key = ${`task.expire:${other}`}`.execute(db);
    expect(rows).toEqual([]);
  });
});

describe('notifications between connections', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.close();
  });

  it('reach the connections that listen on the channel, and only those', async () => {
    const listener = new pg.Client({ connectionString: db.url });
    const other = new pg.Client({ connectionString: db.url });
    const sender = new pg.Client({ connectionString: db.url });
    await Promise.all([listener.connect(), other.connect(), sender.connect()]);
    try {
      const heard: string[] = [];
      const overheard: string[] = [];
      listener.on('notification', (m) => heard.push(`${m.channel}:${m.payload}`));
      other.on('notification', (m) => overheard.push(`${m.channel}:${m.payload}`));
      await listener.query('LISTEN "jobs:insert"');
      await other.query('LISTEN elsewhere');
      await sender.query(`SELECT pg_notify('jobs:insert', 'one')`);
      await sender.query('BEGIN');
      await sender.query(`SELECT pg_notify('jobs:insert', 'two')`);
      await sender.query('COMMIT');
      await until('both notifications', () => heard.length === 2);
      expect(heard).toEqual(['jobs:insert:one', 'jobs:insert:two']);
      // A notification rolled back is never sent; one after UNLISTEN is not heard.
      await sender.query('BEGIN');
      await sender.query(`SELECT pg_notify('jobs:insert', 'rolled back')`);
      await sender.query('ROLLBACK');
      await listener.query('UNLISTEN "jobs:insert"');
      await sender.query(`SELECT pg_notify('jobs:insert', 'three')`);
      await listener.query('SELECT 1');
      expect(heard).toEqual(['jobs:insert:one', 'jobs:insert:two']);
      expect(overheard).toEqual([]);
    } finally {
      await Promise.all([listener.end(), other.end(), sender.end()]);
    }
  });
});
