// New jobs wake the worker by NOTIFY on both databases, so a task reaches its agent without waiting for
// the next poll. The poll here is a minute apart: a delivery that came only by polling would miss the
// test's deadline. On the embedded database this relies on the socket server passing notifications to
// the connections that listen (db/notification-relay.ts).
import pg from 'pg';
import { afterAll, beforeAll, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { describe, expect, testWith } from './support/fixtures.js';
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
