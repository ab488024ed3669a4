// Delivery to a real agent on loopback: retries, give-up, 410, the Standard Webhooks headers, cancel
// while a retry is pending, an agent that answers before its 2xx, redelivery, and expiry.
import { createHmac } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { testWith } from './support/fixtures.js';
import type { TestServer } from './support/server.js';
import { callBack, startTestAgent, waitForStatus, type TestAgent } from './support/agent.js';
import { makeJobsDue, runNextNow, untilNoJobDue } from './support/jobs.js';
import { defaultRetrySchedule } from '../src/delivery/backoff.js';
import { until } from './support/wait.js';

// The service's clock: real time plus what a test moved it on by (expiry is advanced, not waited for).
const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };

let server: TestServer;
let requester: { apiKey: string };
let owner: { apiKey: string };

// Retries wait a minute, longer than any test runs: a retry happens when a test makes it due
// (runNextNow), never on its own while the test looks at what came before it.
const test = testWith({ serverEnv: { DELIVERY_MAX_ATTEMPTS: '2' }, serverTime: { clock, retrySchedule: { ...defaultRetrySchedule, delaysMs: [60_000] } } });

test.beforeAll(async ({ server: s, owner: o, requester: r }) => {
  [server, owner, requester] = [s, o, r];
});

async function agentWith(statuses: number[], opts: { secret?: boolean; headers?: Record<string, string> } = {}) {
  const http = await startTestAgent();
  http.respondWith(statuses, opts.headers);
  const id = (await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Flaky', endpoint: http.url } })).body.data.id as string;
  if (opts.secret) http.secret = (await server.api.post(`/v1/agents/${id}/webhook-secret`, { key: owner.apiKey })).body.webhookSecret;
  return { http, id };
}

const createFor = (agentId: string, extra: Record<string, unknown> = {}) =>
  server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 't', description: 'd', agentId, ...extra } }).then((r) => r.body.data);
const get = (id: string) => server.api.get(`/v1/tasks/${id}`, { key: requester.apiKey }).then((r) => r.body.data);
const deliveries = (agentId: string) => server.api.get(`/v1/agents/${agentId}/deliveries`, { key: owner.apiKey }).then((r) => r.body.data);
// The delivery job of the agent's one delivery.
const deliveryJob = async (agentId: string) => {
  const [delivery] = await deliveries(agentId);
  return { name: 'task.deliver', payload: { deliveryId: delivery.id as string } };
};

describe('retries', () => {
  let agent: TestAgent;
  afterAll(() => agent?.close());

  it('retries a failing endpoint with the same webhook-id and succeeds', async () => {
    const a = await agentWith([500, 200], { secret: true });
    agent = a.http;
    const task = await createFor(a.id);
    await a.http.waitFor(1);
    await runNextNow(server.prisma, await deliveryJob(a.id));
    await a.http.waitFor(2);
    const [first, second] = a.http.received;
    expect(first!.headers['webhook-id']).toBe(second!.headers['webhook-id']);
    expect(second!.signatureValid).toBe(true);
    await waitForStatus(() => get(task.id), ['in_progress']);
    const [delivery] = await deliveries(a.id);
    expect(delivery).toMatchObject({ taskId: task.id, status: 'succeeded', attemptCount: 2 });
    expect(delivery.attempts.map((x: { statusCode: number }) => x.statusCode)).toEqual([500, 200]);
    expect(delivery.attempts[0].error).toBe('HTTP 500');
    expect(typeof delivery.attempts[0].latencyMs).toBe('number');
    // Standard Webhooks signature over id.timestamp.body with the decoded secret.
    const h = second!.headers;
    const key = Buffer.from(a.http.secret!.slice('whsec_'.length), 'base64');
    const expected = createHmac('sha256', key).update(`${h['webhook-id']}.${h['webhook-timestamp']}.${second!.raw.toString('utf8')}`).digest('base64');
    // The HMAC signature first; the agent's Ed25519 one (v1a, test/webhook-v1a.test.ts) after it.
    expect(String(h['webhook-signature']).split(' ')[0]).toBe(`v1,${expected}`);
  });

  it('gives up after the configured attempts and fails the task with delivery_failed', async () => {
    const a = await agentWith([503]);
    const task = await createFor(a.id);
    await a.http.waitFor(1);
    await runNextNow(server.prisma, await deliveryJob(a.id));
    const done = await waitForStatus(() => get(task.id), ['failed'], 30_000);
    expect(done).toMatchObject({ status: 'failed', error: 'delivery_failed' });
    expect(a.http.received).toHaveLength(2);
    const [delivery] = await deliveries(a.id);
    expect(delivery).toMatchObject({ status: 'failed', attemptCount: 2 });
    await a.http.close();
  });

  it('stops at once on 410', async () => {
    const a = await agentWith([410]);
    const task = await createFor(a.id);
    const done = await waitForStatus(() => get(task.id), ['failed'], 20_000);
    expect(done.error).toBe('delivery_failed');
    expect(a.http.received).toHaveLength(1);
    await a.http.close();
  });

  it('fails the task in the transaction that records the last attempt: neither commits without the other', async () => {
    // The undeliverable move's history entry is refused for a while, so the attempt's transaction fails
    // after the task's move: had the move run apart (after the commit), the delivery would be over with
    // its task still matched until it expired.
    await server.prisma.$executeRawUnsafe(`CREATE FUNCTION refuse_undeliverable() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$`);
    await server.prisma.$executeRawUnsafe(`CREATE TRIGGER refuse_undeliverable BEFORE INSERT ON task_history FOR EACH ROW WHEN (NEW.action = 'undeliverable') EXECUTE FUNCTION refuse_undeliverable()`);
    const a = await agentWith([410]);
    let taskId: string;
    let job: Awaited<ReturnType<typeof deliveryJob>>;
    try {
      taskId = (await createFor(a.id)).id;
      await a.http.waitFor(1);
      job = await deliveryJob(a.id);
      await until('the attempt to fail and wait for its retry', async () => {
        const [row] = await server.prisma.$queryRaw<Array<{ n: number }>>`
          SELECT count(*)::int AS n FROM graphile_worker._private_jobs WHERE payload::jsonb @> ${JSON.stringify(job.payload)}::jsonb AND last_error IS NOT NULL`;
        return row!.n > 0;
      });
      expect((await get(taskId)).status).toBe('matched');
      const [delivery] = await deliveries(a.id);
      expect(delivery).toMatchObject({ status: 'pending', attempts: [] });
    } finally {
      await server.prisma.$executeRawUnsafe('DROP TRIGGER refuse_undeliverable ON task_history');
      await server.prisma.$executeRawUnsafe('DROP FUNCTION refuse_undeliverable()');
    }
    // The retry finds the endpoint gone again and gives up: both commit, once.
    await runNextNow(server.prisma, job);
    const done = await waitForStatus(() => get(taskId), ['failed'], 20_000);
    expect(done.error).toBe('delivery_failed');
    const [delivery] = await deliveries(a.id);
    expect(delivery).toMatchObject({ status: 'failed' });
    expect(delivery.attempts.map((x: { statusCode: number }) => x.statusCode)).toEqual([410]);
    expect(await server.prisma.taskHistoryEntry.count({ where: { taskId, action: 'undeliverable' } })).toBe(1);
    await a.http.close();
  });

  it('sends no HMAC signature without a secret, only the agent key’s v1a', async () => {
    const a = await agentWith([200]);
    await createFor(a.id);
    const [d] = await a.http.waitFor(1);
    expect(d!.headers['x-service-signature']).toBeUndefined();
    expect(String(d!.headers['webhook-signature']).split(' ').map((s) => s.split(',')[0])).toEqual(['v1a']);
    expect(d!.headers['x-service-timestamp']).toMatch(/^\d{4}-\d\d-\d\dT/);
    await a.http.close();
  });
});

describe('timing of answers', () => {
  it('does not deliver again after the requester cancels during a retry wait', async () => {
    const a = await agentWith([500, 200]);
    const task = await createFor(a.id);
    await a.http.waitFor(1);
    const cancel = await server.api.post(`/v1/tasks/${task.id}/cancel`, { key: requester.apiKey });
    expect(cancel.body.data.status).toBe('cancelled');
    // The retry comes due and runs: no second delivery.
    const job = await deliveryJob(a.id);
    await runNextNow(server.prisma, job);
    await untilNoJobDue(server.prisma, job);
    expect(a.http.received).toHaveLength(1);
    expect((await get(task.id)).status).toBe('cancelled');
    await a.http.close();
  });

  it('keeps the result when the agent calls back before answering the delivery', async () => {
    const a = await agentWith([200]);
    a.http.callbackBeforeAnswer(true);
    a.http.onDelivery(async (d) => {
      const res = await callBack(d, { result: { early: true } });
      expect(res.status).toBe(200);
    });
    const task = await createFor(a.id);
    const done = await waitForStatus(() => get(task.id), ['completed']);
    expect(done.result).toEqual({ early: true });
    // The 2xx that arrives afterwards does not move the task back (the delivery job is over once it
    // has recorded that 2xx).
    await untilNoJobDue(server.prisma, await deliveryJob(a.id));
    expect((await deliveries(a.id))[0]).toMatchObject({ status: 'succeeded', attemptCount: 1 });
    expect((await get(task.id)).status).toBe('completed');
    await a.http.close();
  });
});

describe('redelivery', () => {
  it('lets the owner deliver a still-matched task again, and refuses otherwise', async () => {
    const a = await agentWith([500]);
    const task = await createFor(a.id, { expiresInMinutes: 30 });
    await a.http.waitFor(1);
    const [delivery] = await deliveries(a.id);
    a.http.respondWith([200]);
    const stranger = await server.createUser();
    expect((await server.api.post(`/v1/agents/${a.id}/deliveries/${delivery.id}/redeliver`, { key: stranger.apiKey })).status).toBe(403);
    const res = await server.api.post(`/v1/agents/${a.id}/deliveries/${delivery.id}/redeliver`, { key: owner.apiKey });
    expect(res.status).toBe(202);
    await waitForStatus(() => get(task.id), ['in_progress']);
    expect(a.http.received.length).toBeGreaterThanOrEqual(2);
    const again = await server.api.post(`/v1/agents/${a.id}/deliveries/${delivery.id}/redeliver`, { key: owner.apiKey });
    expect(again.status).toBe(409);
    expect((await server.api.post(`/v1/agents/${a.id}/deliveries/dlv_unknown/redeliver`, { key: owner.apiKey })).status).toBe(404);
    await a.http.close();
  });
});

describe('expiry', () => {
  it('expires an unfinished task at its time', async () => {
    const task = await server.api
      .post('/v1/tasks', { key: requester.apiKey, body: { title: 't', description: 'd', capabilities: ['none-here'], expiresInMinutes: 1 } })
      .then((r) => r.body.data);
    expect(task.status).toBe('pending');
    // Not yet: the job finds the time has not come and stays scheduled.
    await makeJobsDue(server.prisma, { name: 'task.expire', payload: { taskId: task.id } });
    await untilNoJobDue(server.prisma, { name: 'task.expire', payload: { taskId: task.id } });
    expect((await get(task.id)).status).toBe('pending');
    clock.offsetMs += 61_000;
    await makeJobsDue(server.prisma, { name: 'task.expire', payload: { taskId: task.id } });
    const done = await waitForStatus(() => get(task.id), ['expired'], 10_000);
    expect(done.finishedAt).not.toBeNull();
    expect(Date.parse(done.finishedAt)).toBeGreaterThanOrEqual(Date.parse(task.expiresAt));
  });
});
