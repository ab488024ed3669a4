// A free task is made, paid and matched by one statement (task-states.ts createMoved), and its answer ends
// it by one statement that also settles its payment and queues the agent's recount (tasks.ts finish):
// what rides on a move is written with it, or not at all.
import { sql, type QueryResult } from 'kysely';
import { vi } from 'vitest';
import { isUniqueViolation } from '../src/db/errors.js';
import { newId } from '../src/ids.js';
import { jobCall } from '../src/stores/job-store.js';
import { deliverTask } from '../src/jobs/specs/task-deliver.js';
import { expireTask } from '../src/jobs/specs/task-expire.js';
import { createMoved } from '../src/services/task-states.js';
import { applyMove, findTask } from '../src/stores/task-store.js';
import { callBack, waitForStatus } from './support/agent.js';
import { describe, expect, testWith } from './support/fixtures.js';
import { until } from './support/wait.js';

const test = testWith({ agentProfile: { name: 'Single', capabilities: ['single'], protocols: ['http'] } });

describe('a free task, one statement each way', () => {
  test('the create answers the task as stored, matched, with its payment, delivery and expiry job', async ({ server, requester, agent }) => {
    // The keys inside a JSON value are the requester's: snake_case comes back as it was sent, everywhere.
    const input = { user_text: 'hi', nested_part: { some_key: 1 } };
    // Not answered yet: the task stays matched while the test looks at it.
    const release = agent.http.hold();
    try {
      const created = await server.api.post('/v1/tasks', {
        key: requester.apiKey,
        body: { title: 'One statement', description: 'd', input, capabilities: ['single'], requirements: { maxPriceCents: 0 } },
      });
      expect(created.status).toBe(201);
      const id = created.body.data.id as string;
      const stored = await server.api.get(`/v1/tasks/${id}`, { key: requester.apiKey });
      expect(created.body.data).toEqual(stored.body.data);
      expect(created.body.data).toMatchObject({ status: 'matched', agentId: agent.id, input, routing: { status: 'routed', agentId: agent.id } });
      expect(created.body.data.payment).toMatchObject({ method: 'free', status: 'authorized', amountCents: 0 });

      const db = server.app.services.deps.sql;
      const history = await db.selectFrom('taskHistory').select(['action', 'fromStatus', 'toStatus']).where('taskId', '=', id).execute();
      expect(history).toEqual([{ action: 'match', fromStatus: 'pending', toStatus: 'matched' }]);
      expect(await db.selectFrom('deliveries').select('agentId').where('taskId', '=', id).execute()).toEqual([{ agentId: agent.id }]);
      const { rows: jobs } = await sql<{ name: string }>`SELECT t.identifier AS name FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE j.payload->>'taskId' = ${id}`.execute(db);
      expect(jobs).toEqual([{ name: 'task.expire' }]);
      expect((await findTask(db, id))!.input).toEqual(input);
      const delivered = await until('the delivery', () => agent.http.received.find((d) => d.body.taskId === id));
      expect(delivered.body.input).toEqual(input);
    } finally {
      release();
    }
  });

  test('a create that cannot be written writes nothing: no payment, delivery, history or job', async ({ server, requester, agent }) => {
    const key = `one-${newId('k')}`;
    const first = await server.api.post('/v1/tasks', {
      key: requester.apiKey,
      body: { title: 'Keyed', description: 'd', agentId: agent.id },
      headers: { 'idempotency-key': key },
    });
    expect(first.status).toBe(201);
    // A second task with the same key, as a concurrent request would write it after both found none.
    const db = server.app.services.deps.sql;
    const id = newId('tsk');
    const deliveryId = newId('dlv');
    const paymentId = newId('pay');
    const now = new Date();
    const expiresAt = new Date(now.getTime() + 3_600_000);
    const written = createMoved(
      db,
      { id, requesterId: requester.id, agentId: agent.id, title: 'Keyed', description: 'd', createdAt: now, expiresAt, idempotencyKey: key },
      'match',
      {
        now,
        notify: null,
        deliveryId,
        jobs: [jobCall(deliverTask, { deliveryId }), jobCall(expireTask, { taskId: id }, { runAt: expiresAt })],
        payment: { id: paymentId, method: 'free', status: 'authorized', amountCents: 0, payeeId: null, createdAt: now },
      },
    );
    const error = await written.then(() => null, (e: unknown) => e);
    expect(isUniqueViolation(error)).toBe(true);
    expect(await db.selectFrom('tasks').select('id').where('id', '=', id).execute()).toEqual([]);
    expect(await db.selectFrom('payments').select('id').where('id', '=', paymentId).execute()).toEqual([]);
    expect(await db.selectFrom('deliveries').select('id').where('id', '=', deliveryId).execute()).toEqual([]);
    expect(await db.selectFrom('taskHistory').select('id').where('taskId', '=', id).execute()).toEqual([]);
    const { rows: jobs } = await sql`SELECT id FROM graphile_worker._private_jobs WHERE payload->>'taskId' = ${id} OR payload->>'deliveryId' = ${deliveryId}`.execute(db);
    expect(jobs).toEqual([]);
  });

  test('the answer reads back of the task only what its status and announcement need', async ({ server, requester, agent }) => {
    const release = agent.http.hold();
    const db = server.app.services.deps.sql;
    try {
      const created = await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 'Narrow', description: 'd', agentId: agent.id } });
      const id = created.body.data.id as string;
      const delivery = await until('the delivery', () => agent.http.received.find((d) => d.body.taskId === id));
      const spy = vi.spyOn(db, 'executeQuery');
      try {
        const answered = await callBack(delivery, { result: { ok: true } });
        expect(answered).toMatchObject({ status: 200, body: { data: { id, status: 'completed' } } });
        const moves = spy.mock.calls.flatMap(([query], i) => ('sql' in query && /update "tasks"/.test(query.sql) ? [spy.mock.results[i]!.value as Promise<QueryResult<object>>] : []));
        expect(moves).toHaveLength(1);
        const [row] = (await moves[0]!).rows;
        const taskColumns = Object.keys(row!).filter((key) => !/^(job\d+|notified|removed|insertedPayment|movedPayment)$/.test(key));
        expect(taskColumns.sort()).toEqual(['agentId', 'id', 'requesterId', 'status']);
      } finally {
        spy.mockRestore();
      }
      expect((await findTask(db, id))!.status).toBe('completed');
    } finally {
      release();
    }
  });

  test('an answer whose move loses its race settles nothing and queues nothing; the one that wins does both', async ({ server, requester, agent }) => {
    const release = agent.http.hold();
    const db = server.app.services.deps.sql;
    const figuresJobs = async () =>
      (await sql<{ n: number }>`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE key = ${`agent.figures:${agent.id}`}`.execute(db)).rows[0]!.n;
    try {
      const created = await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 'Raced', description: 'd', agentId: agent.id } });
      expect(created.status).toBe(201);
      const id = created.body.data.id as string;
      const delivery = await until('the delivery', () => agent.http.received.find((d) => d.body.taskId === id));
      const payment = await db.selectFrom('payments').selectAll().where('taskId', '=', id).executeTakeFirstOrThrow();
      expect(payment.status).toBe('authorized');
      const queuedBefore = await figuresJobs();

      // The completion as the callback writes it, from a status the task is no longer in.
      const now = new Date();
      const lost = await applyMove(db, {
        taskId: id,
        action: 'complete',
        from: 'in_progress',
        to: 'completed',
        now,
        changes: { finishedAt: now, tokenHash: null },
        history: { id: newId('evt'), actor: 'agent', actorId: agent.id, note: null, data: undefined },
        notify: null,
        removeJobKey: `task.expire:${id}`,
        jobs: [server.app.services.reputation.finishedTaskJob(agent.id)],
        paymentMove: { id: payment.id, from: ['authorized'], to: 'captured', changes: { settledAt: now } },
      });
      expect(lost).toBeNull();
      expect(await db.selectFrom('payments').select(['status', 'settledAt']).where('id', '=', payment.id).executeTakeFirst()).toEqual({ status: 'authorized', settledAt: null });
      expect(await db.selectFrom('taskHistory').select('action').where('taskId', '=', id).execute()).toEqual([{ action: 'match' }]);
      expect(await figuresJobs()).toBe(queuedBefore);
      const { rows: expiry } = await sql`SELECT id FROM graphile_worker.jobs WHERE key = ${`task.expire:${id}`}`.execute(db);
      expect(expiry).toHaveLength(1);

      // The agent's real answer wins: the task, its payment and its recount, together.
      expect((await callBack(delivery, { result: { ok: true } })).status).toBe(200);
      const done = await db.selectFrom('tasks').select(['status']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(done.status).toBe('completed');
      const settled = await db.selectFrom('payments').select(['status', 'settledAt']).where('id', '=', payment.id).executeTakeFirstOrThrow();
      expect(settled.status).toBe('captured');
      expect(settled.settledAt).toBeInstanceOf(Date);
      await waitForStatus(() => server.api.get(`/v1/tasks/${id}`, { key: requester.apiKey }).then((r) => r.body.data), ['completed']);
    } finally {
      release();
    }
  });
});
