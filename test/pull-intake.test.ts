// Pull intake over real HTTP and WebSocket: an agent with no endpoint claims its tasks with a lease (long
// poll, subscription), extends or gives back a lease, answers on the callback; a lease that runs out is a
// failed attempt of the one delivery and the task is offered again; every task is claimed once under
// concurrency, also from two service instances on one database. Time moves by the service's clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { startTestServer, type TestServer } from './support/server.js';
import { waitForStatus } from './support/agent.js';
import { makeJobsDue } from './support/jobs.js';
import { openSse } from './support/subscriptions.js';
import { until } from './support/wait.js';
import { defaultRetrySchedule } from '../src/delivery/backoff.js';
import { work, type ClaimedDelivery } from '../examples/agent/kit.js';

// The service's clock: real time plus what a test moved it on by.
const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
const SECOND = 1000;

let server: TestServer;
let other: TestServer;
let requester: { id: string; apiKey: string };
let owner: { id: string; apiKey: string };
let stranger: { id: string; apiKey: string };

beforeAll(async () => {
  // A failed attempt is retried 2 s later (no jitter): a test moves the clock past it.
  const time = { clock, retrySchedule: { ...defaultRetrySchedule, delaysMs: [2 * SECOND], jitterFraction: 0 } };
  server = await startTestServer({ DELIVERY_MAX_ATTEMPTS: '4' }, { time });
  // A second service instance on the same database (its own pools, bus and worker).
  other = await startTestServer({ DELIVERY_MAX_ATTEMPTS: '4' }, { db: server.db, time });
  requester = await server.createUser();
  owner = await server.createUser();
  stranger = await server.createUser();
});
afterAll(async () => {
  await other?.close();
  await server?.close();
});

const pullAgent = async (extra: Record<string, unknown> = {}) => {
  const res = await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Laptop worker', deliveryMode: 'pull', capabilities: ['shout'], ...extra } });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
};
const createFor = async (agentId: string, input: Record<string, unknown> = { text: 'hi' }, extra: Record<string, unknown> = {}) => {
  const res = await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 'Shout', description: 'upper-case it', input, agentId, ...extra } });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; status: string };
};
const claim = (agentId: string, body: Record<string, unknown> = { waitSeconds: 0 }, key = owner.apiKey, api = server.api) =>
  api.post(`/v1/agents/${agentId}/tasks/claim`, { key, body });
const claimed = async (agentId: string, body: Record<string, unknown> = { waitSeconds: 0 }) => {
  const res = await claim(agentId, body);
  expect(res.status).toBe(200);
  return res.body.data as ClaimedDelivery[];
};
const get = (id: string) => server.api.get(`/v1/tasks/${id}`, { key: requester.apiKey }).then((r) => r.body.data);
const deliveries = (agentId: string) => server.api.get(`/v1/agents/${agentId}/deliveries`, { key: owner.apiKey }).then((r) => r.body.data);
const answer = (c: ClaimedDelivery, body: Record<string, unknown>) => server.api.post(`/v1/tasks/${c.taskId}/callback`, { body: { taskToken: c.taskToken, ...body } });

describe('registration', () => {
  it('takes an agent without an endpoint in pull mode, shows the mode in discovery, and still asks push agents for one', async () => {
    const agentId = await pullAgent();
    const mine = (await server.api.get(`/v1/agents/${agentId}`, { key: owner.apiKey })).body.data;
    expect(mine).toMatchObject({ deliveryMode: 'pull', endpoint: '' });
    const pub = await server.api.get(`/v1/discover/${agentId}`);
    expect(pub.body.data).toMatchObject({ deliveryMode: 'pull' });

    const push = await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'No endpoint' } });
    expect(push.status).toBe(400);
    expect(push.body.error).toMatchObject({ code: 'INVALID_INPUT', field: 'endpoint' });
    const bad = await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Odd', deliveryMode: 'poll' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.field).toBe('deliveryMode');
    // Back to push without an endpoint is refused too.
    const back = await server.api.put(`/v1/agents/${agentId}`, { key: owner.apiKey, body: { deliveryMode: 'push' } });
    expect(back.status).toBe(400);
    expect(back.body.error.field).toBe('endpoint');
  });
});

describe('claims', () => {
  it('hands out the webhook payload with a lease, and a waiting long poll is woken by a new task', async () => {
    const agentId = await pullAgent();
    expect(await claimed(agentId)).toEqual([]);
    const waiting = claim(agentId, { waitSeconds: 30, leaseSeconds: 60 });
    // The claim listens before it looks, so a task made now is not missed whichever comes first.
    const task = await createFor(agentId, { text: 'wake up' });
    const res = await waiting;
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    const [c] = res.body.data as ClaimedDelivery[];
    expect(Object.keys(c!)).toEqual(expect.arrayContaining(['taskId', 'taskToken', 'title', 'description', 'input', 'callbackUrl', 'capabilities', 'priority', 'expiresAt', 'lease']));
    expect(c).toMatchObject({ type: 'task.assigned', taskId: task.id, title: 'Shout', description: 'upper-case it', input: { text: 'wake up' }, callbackUrl: expect.stringMatching(new RegExp(`/v1/tasks/${task.id}/callback$`)) });
    const leaseEnd = Date.parse(c!.lease.expiresAt) - clock.now().getTime();
    expect(leaseEnd).toBeGreaterThan(50 * SECOND);
    expect(leaseEnd).toBeLessThanOrEqual(60 * SECOND);
    // Held: no one else gets it.
    expect(await claimed(agentId)).toEqual([]);
    expect((await answer(c!, { result: { text: 'WAKE UP' } })).status).toBe(200);
    expect((await get(task.id)).status).toBe('completed');
    // The next claim settles the answered lease: the delivery succeeded on its first attempt.
    await claimed(agentId);
    const [delivery] = await deliveries(agentId);
    expect(delivery).toMatchObject({ taskId: task.id, status: 'succeeded', attemptCount: 1 });
    expect(delivery.attempts).toMatchObject([{ number: 1, statusCode: null, error: null }]);
  });

  it('answers an empty list when the wait ends, and bounds batch, wait and lease, naming the field', async () => {
    const agentId = await pullAgent();
    const started = Date.now();
    const empty = await claim(agentId, { waitSeconds: 1 });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ data: [] });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    for (const [field, value] of [['max', 0], ['max', 51], ['waitSeconds', 61], ['waitSeconds', -1], ['leaseSeconds', 5], ['leaseSeconds', 3601], ['max', 1.5]] as const) {
      const res = await claim(agentId, { [field]: value });
      expect(res.status, `${field}=${value}`).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'INVALID_INPUT', field });
    }
    const tasks = [await createFor(agentId), await createFor(agentId), await createFor(agentId)];
    const two = await claimed(agentId, { max: 2, waitSeconds: 0 });
    expect(two.map((c) => c.taskId)).toEqual([tasks[0]!.id, tasks[1]!.id]);
    const last = await claimed(agentId, { max: 5, waitSeconds: 0 });
    expect(last.map((c) => c.taskId)).toEqual([tasks[2]!.id]);
  });

  it("refuses another owner's credential, a key without tasks:work, and an agent that takes tasks by push", async () => {
    const agentId = await pullAgent();
    const theirs = await claim(agentId, { waitSeconds: 0 }, stranger.apiKey);
    expect(theirs.status).toBe(403);
    expect((await claim('agt_nope', { waitSeconds: 0 })).status).toBe(404);
    const readOnly = (await server.api.post('/v1/api-keys', { key: owner.apiKey, body: { name: 'reader', scopes: ['tasks:read', 'tasks:write', 'agents:read'] } })).body.data.apiKey;
    const scoped = await claim(agentId, { waitSeconds: 0 }, readOnly);
    expect(scoped.status).toBe(403);
    expect(scoped.body.error).toMatchObject({ code: 'INSUFFICIENT_SCOPE', scope: 'tasks:work' });
    const worker = (await server.api.post('/v1/api-keys', { key: owner.apiKey, body: { name: 'worker', scopes: ['tasks:work'] } })).body.data.apiKey;
    expect((await claim(agentId, { waitSeconds: 0 }, worker)).status).toBe(200);
    const pushId = (await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Pushed', endpoint: 'http://127.0.0.1:9/hook' } })).body.data.id;
    const push = await claim(pushId, { waitSeconds: 0 });
    expect(push.status).toBe(409);
    expect(push.body.error.deliveryMode).toBe('push');
    // Nor can another owner extend or give back a lease.
    const task = await createFor(agentId);
    await claimed(agentId);
    expect((await server.api.post(`/v1/agents/${agentId}/tasks/${task.id}/lease`, { key: stranger.apiKey, body: {} })).status).toBe(403);
    expect((await server.api.post(`/v1/agents/${agentId}/tasks/${task.id}/release`, { key: stranger.apiKey })).status).toBe(403);
  });

  it('bounds claims by maxConcurrentTasks', async () => {
    const agentId = await pullAgent({ maxConcurrentTasks: 1 });
    const first = await createFor(agentId);
    const second = await createFor(agentId);
    const one = await claimed(agentId, { max: 5, waitSeconds: 0 });
    expect(one.map((c) => c.taskId)).toEqual([first.id]);
    expect(await claimed(agentId, { max: 5, waitSeconds: 0 })).toEqual([]);
    expect((await answer(one[0]!, { result: { ok: true } })).status).toBe(200);
    expect((await claimed(agentId, { max: 5, waitSeconds: 0 })).map((c) => c.taskId)).toEqual([second.id]);
  });
});

describe('leases', () => {
  it('offers the task of a worker that died holding it to another after the lease, as a failed attempt', async () => {
    const agentId = await pullAgent();
    const task = await createFor(agentId);
    const [held] = await claimed(agentId, { leaseSeconds: 10, waitSeconds: 0 });
    expect(held!.taskId).toBe(task.id);
    clock.offsetMs += 5 * SECOND;
    expect(await claimed(agentId)).toEqual([]);
    clock.offsetMs += 6 * SECOND;
    // The lease ran out: a failed attempt, and the retry waits out the backoff (2 s) like a webhook's.
    expect(await claimed(agentId)).toEqual([]);
    let [delivery] = await deliveries(agentId);
    expect(delivery).toMatchObject({ status: 'pending', attemptCount: 1 });
    expect(delivery.attempts).toMatchObject([{ number: 1, statusCode: null, error: 'the lease ended without an answer' }]);
    clock.offsetMs += 3 * SECOND;
    const [again] = await claimed(agentId, { leaseSeconds: 60, waitSeconds: 0 });
    expect(again).toMatchObject({ taskId: task.id, taskToken: held!.taskToken });
    expect((await get(task.id)).status).toBe('matched');
    expect((await answer(again!, { result: { text: 'HI' } })).status).toBe(200);
    await claimed(agentId);
    [delivery] = await deliveries(agentId);
    expect(delivery).toMatchObject({ status: 'succeeded', attemptCount: 2 });
    expect(delivery.attempts.map((a: { error: string | null }) => a.error)).toEqual(['the lease ended without an answer', null]);
  });

  it('settles a lease that ran out through its job when no one claims again, and gives up after the last attempt', async () => {
    const agentId = await pullAgent();
    const task = await createFor(agentId);
    for (let attempt = 1; attempt <= 4; attempt++) {
      const [c] = await claimed(agentId, { leaseSeconds: 10, waitSeconds: 0 });
      expect(c?.taskId, `attempt ${attempt}`).toBe(task.id);
      clock.offsetMs += 11 * SECOND;
      const [delivery] = await deliveries(agentId);
      // The delivery's job at the lease's end records the failure, without any claim.
      await until('the lease job to run', async () => {
        await makeJobsDue(server.prisma, { name: 'task.deliver', payload: { deliveryId: delivery.id } });
        const [now] = await deliveries(agentId);
        return now.attempts.length === attempt;
      });
      clock.offsetMs += 3 * SECOND;
    }
    const failed = await waitForStatus(() => get(task.id), ['failed']);
    expect(failed.error).toBe('delivery_failed');
    const [delivery] = await deliveries(agentId);
    expect(delivery).toMatchObject({ status: 'failed', attemptCount: 4 });
  });

  it('extends a lease, and refuses to extend one that is not held', async () => {
    const agentId = await pullAgent();
    const task = await createFor(agentId);
    await claimed(agentId, { leaseSeconds: 10, waitSeconds: 0 });
    const extended = await server.api.post(`/v1/agents/${agentId}/tasks/${task.id}/lease`, { key: owner.apiKey, body: { leaseSeconds: 120 } });
    expect(extended.status).toBe(200);
    expect(Date.parse(extended.body.data.lease.expiresAt) - clock.now().getTime()).toBeGreaterThan(110 * SECOND);
    const tooLong = await server.api.post(`/v1/agents/${agentId}/tasks/${task.id}/lease`, { key: owner.apiKey, body: { leaseSeconds: 4000 } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.field).toBe('leaseSeconds');
    clock.offsetMs += 60 * SECOND;
    expect(await claimed(agentId)).toEqual([]);
    expect((await deliveries(agentId))[0].attempts).toEqual([]);
    clock.offsetMs += 61 * SECOND;
    const late = await server.api.post(`/v1/agents/${agentId}/tasks/${task.id}/lease`, { key: owner.apiKey, body: {} });
    expect(late.status).toBe(409);
  });

  it('takes a task given back and offers it again at once, without hurting health', async () => {
    const agentId = await pullAgent();
    const task = await createFor(agentId);
    await claimed(agentId);
    const released = await server.api.post(`/v1/agents/${agentId}/tasks/${task.id}/release`, { key: owner.apiKey });
    expect(released.status).toBe(200);
    expect(released.body.data).toEqual({ taskId: task.id, released: true });
    expect((await server.api.post(`/v1/agents/${agentId}/tasks/${task.id}/release`, { key: owner.apiKey })).status).toBe(409);
    const [again] = await claimed(agentId);
    expect(again!.taskId).toBe(task.id);
    const [delivery] = await deliveries(agentId);
    expect(delivery.attemptCount).toBe(2);
    expect(delivery.attempts).toMatchObject([{ number: 1, error: 'given back by the agent' }]);
  });

  it('ends the claim of a task that expires while claimed: no answer, no extension, the delivery dropped', async () => {
    const agentId = await pullAgent();
    const task = await createFor(agentId, { text: 'late' }, { expiresInMinutes: 1 });
    const [c] = await claimed(agentId, { leaseSeconds: 600, waitSeconds: 0 });
    clock.offsetMs += 61 * SECOND;
    await until('the task to expire', async () => {
      await makeJobsDue(server.prisma, { name: 'task.expire', payload: { taskId: task.id } });
      return (await get(task.id)).status === 'expired';
    });
    expect((await answer(c!, { result: { text: 'LATE' } })).status).toBe(409);
    expect((await server.api.post(`/v1/agents/${agentId}/tasks/${task.id}/lease`, { key: owner.apiKey, body: {} })).status).toBe(409);
    await claimed(agentId);
    const [delivery] = await deliveries(agentId);
    expect(delivery).toMatchObject({ status: 'failed', attempts: [] });
  });
});

describe('concurrency', () => {
  it('claims each task once across several workers and two service instances', async () => {
    const agentId = await pullAgent();
    const tasks = await Promise.all(Array.from({ length: 12 }, () => createFor(agentId)));
    const apis = [server.api, other.api];
    const got: string[] = [];
    // Six workers, three on each instance, claim until every task is taken.
    await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        while (got.length < tasks.length) {
          const res = await claim(agentId, { max: 3, waitSeconds: 0 }, owner.apiKey, apis[i % 2]);
          expect(res.status).toBe(200);
          got.push(...(res.body.data as ClaimedDelivery[]).map((c) => c.taskId));
        }
      }),
    );
    expect(got).toHaveLength(tasks.length);
    expect(new Set(got)).toEqual(new Set(tasks.map((t) => t.id)));
  });
});

describe('held streams', () => {
  const SUBSCRIPTION = 'subscription($agentId: ID!) { taskClaims(agentId: $agentId, leaseSeconds: 60) { type taskId taskToken input lease { expiresAt } } }';

  it('hands claims out over a WebSocket subscription, and gives back none it did not send', async () => {
    const agentId = await pullAgent();
    const received: ClaimedDelivery[] = [];
    const client = createClient({ url: server.url.replace('http', 'ws') + '/graphql', webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${owner.apiKey}` }, retryAttempts: 0 });
    const errors: unknown[] = [];
    const dispose = client.subscribe<{ taskClaims: ClaimedDelivery }>(
      { query: SUBSCRIPTION, variables: { agentId } },
      { next: (v) => (v.data ? received.push(v.data.taskClaims) : errors.push(v.errors)), error: (e) => errors.push(e), complete: () => {} },
    );
    try {
      const first = await createFor(agentId, { text: 'one' });
      const second = await createFor(agentId, { text: 'two' });
      await until('two claims over the socket', () => received.length === 2);
      expect(received.map((c) => c.taskId).sort()).toEqual([first.id, second.id].sort());
      expect(errors).toEqual([]);
      for (const c of received) expect((await answer(c, { result: { done: true } })).status).toBe(200);
    } finally {
      dispose();
      await client.dispose();
    }
    // Gone: a task made now stays for the next claim, not leased to the closed socket.
    await until('the subscription to end', () => server.app.services.deps.events.count() === 0);
    const third = await createFor(agentId);
    expect((await claimed(agentId)).map((c) => c.taskId)).toEqual([third.id]);
  });

  it('hands claims out over SSE, and refuses a key without tasks:work', async () => {
    const agentId = await pullAgent();
    const task = await createFor(agentId);
    const sse = await openSse(server.url, owner.apiKey, SUBSCRIPTION, { agentId });
    await until('a claim over SSE', () => sse.text.includes(task.id));
    sse.close();
    await sse.ended;
    const next = sse.events.find((e) => e.event === 'next');
    expect(next?.data).toMatchObject({ data: { taskClaims: { type: 'task.assigned', taskId: task.id } } });
    const reader = (await server.api.post('/v1/api-keys', { key: owner.apiKey, body: { name: 'r', scopes: ['tasks:read'] } })).body.data.apiKey;
    const refused = await openSse(server.url, reader, SUBSCRIPTION, { agentId });
    await refused.ended;
    expect(JSON.stringify(refused.body ?? refused.events)).toContain('tasks:work');
  });
});

describe('the agent kit in worker mode', () => {
  it('takes and completes tasks with no public address', async () => {
    const agentId = await pullAgent();
    const stop = new AbortController();
    const answers: number[] = [];
    const worker = work(async (task) => ({ text: String((task.input as { text: string }).text).toUpperCase() }), {
      serviceUrl: server.url,
      apiKey: owner.apiKey,
      agentId,
      concurrency: 2,
      waitSeconds: 5,
      signal: stop.signal,
      onCallback: (_t, a) => void answers.push(a.status),
    });
    try {
      const tasks = [await createFor(agentId, { text: 'bonjour' }), await createFor(agentId, { text: 'hola' })];
      expect(await waitForStatus(() => get(tasks[0]!.id), ['completed', 'failed'])).toMatchObject({ status: 'completed', result: { text: 'BONJOUR' } });
      expect(await waitForStatus(() => get(tasks[1]!.id), ['completed', 'failed'])).toMatchObject({ status: 'completed', result: { text: 'HOLA' } });
      expect(answers).toEqual([200, 200]);
    } finally {
      stop.abort();
      await worker;
    }
  });
});
