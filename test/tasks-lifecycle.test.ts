// Task creation, reading, listing and every move of the lifecycle over HTTP, with their errors.
import { describe, expect, it } from 'vitest';
import { testWith } from './support/fixtures.js';
import type { TestServer } from './support/server.js';
import { waitForStatus, type TestAgent } from './support/agent.js';

let server: TestServer;
let requester: { id: string; apiKey: string };
let owner: { id: string; apiKey: string };
let stranger: { id: string; apiKey: string };
let agentHttp: TestAgent;
let agentId: string;

const test = testWith({ agentProfile: { name: 'Worker', capabilities: ['work'] } });

test.beforeAll(async ({ server: s, requester: r, owner: o, agent }) => {
  [server, requester, owner] = [s, r, o];
  stranger = await server.createUser();
  [agentHttp, agentId] = [agent.http, agent.id];
});

const create = (body: Record<string, unknown> = {}, key = requester.apiKey) =>
  server.api.post('/v1/tasks', { key, body: { title: 'Do work', description: 'Some work', agentId, ...body } });
const get = (id: string, key = requester.apiKey) => server.api.get(`/v1/tasks/${id}`, { key }).then((r) => r.body.data);
const patch = (id: string, move: string, body?: unknown, key = owner.apiKey) => server.api.patch(`/v1/tasks/${id}/${move}`, { key, body });

// A task the agent has received (in_progress once its delivery was answered with 2xx).
async function deliveredTask(): Promise<string> {
  const id = (await create()).body.data.id;
  await waitForStatus(() => get(id), ['in_progress']);
  return id;
}

describe('creating a task', () => {
  it('returns 201 with the task record and its defaults', async () => {
    const before = Date.now();
    const res = await create({ input: { n: 1 } });
    expect(res.status).toBe(201);
    const task = res.body.data;
    expect(task).toMatchObject({
      title: 'Do work',
      description: 'Some work',
      input: { n: 1 },
      priority: 'normal',
      agentId,
      requesterId: requester.id,
      result: null,
      error: null,
    });
    for (const field of ['id', 'status', 'capabilities', 'protocols', 'maxPriceCents', 'expiresAt', 'createdAt', 'updatedAt', 'matchedAt', 'startedAt', 'finishedAt', 'payment']) {
      expect(task).toHaveProperty(field);
    }
    const ttl = Date.parse(task.expiresAt) - Date.parse(task.createdAt);
    expect(ttl).toBe(60 * 60_000);
    expect(Date.parse(task.createdAt)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('accepts fractional expiresInMinutes', async () => {
    const task = (await create({ expiresInMinutes: 1.5 })).body.data;
    expect(Date.parse(task.expiresAt) - Date.parse(task.createdAt)).toBe(90_000);
  });

  it.each([
    [{ title: '' }, 'title'],
    [{ title: 'x'.repeat(201) }, 'title'],
    [{ description: '' }, 'description'],
    [{ description: undefined }, 'description'],
    [{ priority: 'asap' }, 'priority'],
    [{ expiresInMinutes: 0 }, 'expiresInMinutes'],
    [{ expiresInMinutes: -1 }, 'expiresInMinutes'],
    [{ expiresInMinutes: 10081 }, 'expiresInMinutes'],
    [{ maxPriceCents: -1 }, 'maxPriceCents'],
    [{ maxPriceCents: 2.5 }, 'maxPriceCents'],
    [{ capabilities: 'x' }, 'capabilities'],
    [{ capabilities: [1] }, 'capabilities'],
    [{ input: [1, 2] }, 'input'],
    [{ input: 'text' }, 'input'],
  ])('refuses %j with 400 naming %s', async (body, field) => {
    const res = await create(body);
    if (field === 'capabilities' && (body as { capabilities?: unknown }).capabilities === 'x') {
      // GraphQL input coercion turns a single string into a one-entry list; that is accepted.
      expect(res.status).toBe(201);
      return;
    }
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_INPUT', field });
  });

  it('answers 404 for an unknown agentId and 409 for an inactive one or one above the price cap', async () => {
    const missing = await create({ agentId: 'agt_nope' });
    expect(missing.status).toBe(404);
    const pricey = (await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Pricey', endpoint: agentHttp.url, priceCents: 500 } })).body.data;
    const capped = await create({ agentId: pricey.id, maxPriceCents: 100 });
    expect(capped.status).toBe(409);
    const idle = (await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Idle', endpoint: agentHttp.url, status: 'inactive' } })).body.data;
    const inactive = await create({ agentId: idle.id });
    expect(inactive.status).toBe(409);
    expect(inactive.body.error.code).toBe('CONFLICT');
  });

  it('checks input against the named agent’s inputSchema', async () => {
    const typed = (
      await server.api.post('/v1/agents', {
        key: owner.apiKey,
        body: { name: 'Typed', endpoint: agentHttp.url, inputSchema: JSON.stringify({ type: 'object', required: ['text'], properties: { text: { type: 'string' } } }) },
      })
    ).body.data;
    const bad = await create({ agentId: typed.id, input: { text: 5 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.field).toBe('input');
    expect((await create({ agentId: typed.id, input: { text: 'ok' } })).status).toBe(201);
  });

  it('stays pending without an agent when nothing matches', async () => {
    const res = await create({ agentId: undefined, capabilities: ['nobody-has-this'] });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ status: 'pending', agentId: null });
  });

  it('needs authentication', async () => {
    const res = await server.api.post('/v1/tasks', { body: { title: 'x', description: 'y' } });
    expect(res.status).toBe(401);
  });
});

describe('reading and listing', () => {
  it('lets the requester and the agent owner read a task, and no one else', async () => {
    const id = (await create()).body.data.id;
    expect((await server.api.get(`/v1/tasks/${id}`, { key: requester.apiKey })).status).toBe(200);
    expect((await server.api.get(`/v1/tasks/${id}`, { key: owner.apiKey })).status).toBe(200);
    const other = await server.api.get(`/v1/tasks/${id}`, { key: stranger.apiKey });
    expect(other.status).toBe(403);
    expect((await server.api.get('/v1/tasks/tsk_unknown', { key: requester.apiKey })).status).toBe(404);
  });

  it('lists by role and status with a cursor', async () => {
    const mine = await server.api.call('GET', '/v1/tasks?role=requester&limit=2', { key: requester.apiKey });
    expect(mine.status).toBe(200);
    expect(mine.body.data).toHaveLength(2);
    expect(typeof mine.body.nextCursor).toBe('string');
    const next = await server.api.call('GET', `/v1/tasks?role=requester&limit=2&cursor=${mine.body.nextCursor}`, { key: requester.apiKey });
    const ids = [...mine.body.data, ...next.body.data].map((t: { id: string }) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort().reverse());

    const asAgent = await server.api.call('GET', '/v1/tasks?role=agent&limit=100', { key: owner.apiKey });
    expect(asAgent.body.data.length).toBeGreaterThan(0);
    expect(asAgent.body.data.every((t: { agentId: string | null }) => t.agentId !== null)).toBe(true);
    expect((await server.api.call('GET', '/v1/tasks?role=agent', { key: stranger.apiKey })).body.data).toEqual([]);

    const pending = await server.api.call('GET', '/v1/tasks?status=pending&limit=100', { key: requester.apiKey });
    expect(pending.body.data.every((t: { status: string }) => t.status === 'pending')).toBe(true);
  });

  it('a GraphQL page that asks for more than the columns and payments reads it, in the page order', async () => {
    const rest = await server.api.get('/v1/tasks?role=requester&limit=3', { key: requester.apiKey });
    const listed = await server.api.graphql(
      'query { tasks(role: requester, limit: 3) { data { id payment { method } history { action toStatus } } nextCursor } }',
      {},
      requester.apiKey,
    );
    expect(listed.errors).toBeUndefined();
    const data = listed.data.tasks.data as { id: string; payment: { method: string } | null; history: { action: string; toStatus: string }[] }[];
    expect(data.map((t) => t.id)).toEqual(rest.body.data.map((t: { id: string }) => t.id));
    expect(data.map((t) => t.payment?.method ?? null)).toEqual(rest.body.data.map((t: { payment: { method: string } | null }) => t.payment?.method ?? null));
    expect(data).toHaveLength(3);
    for (const task of data) {
      const one = await server.api.graphql('query($id: ID!) { task(id: $id) { history { action toStatus } } }', { id: task.id }, requester.apiKey);
      expect(task.history).toEqual(one.data.task.history);
    }
    expect(data.some((t) => t.history.length > 0)).toBe(true);
    expect(listed.data.tasks.nextCursor).toBe(rest.body.nextCursor);
  });

  it.each([
    ['role=boss', 'role'],
    ['status=done', 'status'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=abc', 'limit'],
    ['cursor=%%%', 'cursor'],
  ])('refuses ?%s with 400', async (qs, field) => {
    const res = await server.api.call('GET', `/v1/tasks?${qs}`, { key: requester.apiKey });
    expect(res.status).toBe(400);
    expect(res.body.error.field).toBe(field);
  });
});

describe('agent moves', () => {
  it('accept and start are no-ops on in_progress and keep startedAt; complete stores the result', async () => {
    const id = await deliveredTask();
    const accepted = await patch(id, 'accept');
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.status).toBe('in_progress');
    expect(accepted.body.data.startedAt).not.toBeNull();
    const started = await patch(id, 'start');
    expect(started.status).toBe(200);
    expect(started.body.data.startedAt).toBe(accepted.body.data.startedAt);
    const done = await patch(id, 'complete', { result: { answer: 42 } });
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ status: 'completed', result: { answer: 42 } });
    expect(done.body.data.finishedAt).not.toBeNull();
  });

  it('fail stores the error', async () => {
    const id = await deliveredTask();
    const res = await patch(id, 'fail', { error: 'could not do it' });
    expect(res.body.data).toMatchObject({ status: 'failed', error: 'could not do it' });
  });

  it('refuses moves from a terminal state with 409 and the current status, and never changes it', async () => {
    const id = await deliveredTask();
    await patch(id, 'complete', { result: {} });
    for (const [move, body] of [['accept'], ['start'], ['complete', { result: {} }], ['fail', { error: 'x' }]] as const) {
      const res = await patch(id, move, body);
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({ code: 'CONFLICT', status: 'completed' });
    }
    const cancel = await server.api.post(`/v1/tasks/${id}/cancel`, { key: requester.apiKey });
    expect(cancel.status).toBe(409);
    expect((await get(id)).status).toBe('completed');
  });

  it('refuses agent moves on a pending task with 403 (no agent yet) and by non-owners with 403', async () => {
    const pending = (await create({ agentId: undefined, capabilities: ['nobody-has-this'] })).body.data.id;
    expect((await patch(pending, 'accept')).status).toBe(403);
    const id = await deliveredTask();
    for (const key of [requester.apiKey, stranger.apiKey]) {
      expect((await patch(id, 'complete', { result: {} }, key)).status).toBe(403);
      expect((await patch(id, 'start', undefined, key)).status).toBe(403);
    }
    expect((await patch('tsk_unknown', 'start')).status).toBe(404);
  });

  it('validates complete and fail bodies', async () => {
    const id = await deliveredTask();
    expect((await patch(id, 'complete', {})).status).toBe(400);
    expect((await patch(id, 'complete', { result: 'text' })).status).toBe(400);
    expect((await patch(id, 'fail', {})).status).toBe(400);
    expect((await patch(id, 'fail', { error: '' })).status).toBe(400);
  });

  it('lets only one of two concurrent completions win', async () => {
    const id = await deliveredTask();
    const results = await Promise.all([patch(id, 'complete', { result: { by: 1 } }), patch(id, 'fail', { error: 'by 2' })]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  });
});

describe('cancel', () => {
  it('is the requester’s, from any non-terminal state', async () => {
    const pending = (await create({ agentId: undefined, capabilities: ['nobody-has-this'] })).body.data.id;
    expect((await server.api.post(`/v1/tasks/${pending}/cancel`, { key: owner.apiKey })).status).toBe(403);
    const res = await server.api.post(`/v1/tasks/${pending}/cancel`, { key: requester.apiKey });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('cancelled');
    const running = await deliveredTask();
    expect((await server.api.post(`/v1/tasks/${running}/cancel`, { key: requester.apiKey })).body.data.status).toBe('cancelled');
    expect((await server.api.post(`/v1/tasks/${running}/cancel`, { key: requester.apiKey })).status).toBe(409);
  });
});

describe('callback', () => {
  it('needs the right token, takes result or error, and answers 409 once the task is finished', async () => {
    const id = (await create()).body.data.id;
    await waitForStatus(() => get(id), ['in_progress']);
    const delivery = agentHttp.received.find((d) => d.body.taskId === id)!;
    const url = `/v1/tasks/${id}/callback`;
    expect((await server.api.post(url, { body: { taskToken: 'wrong', result: {} } })).status).toBe(401);
    expect((await server.api.post(url, { body: { result: {} } })).status).toBe(400);
    const both = await server.api.post(url, { body: { taskToken: delivery.body.taskToken, result: {}, error: 'x' } });
    expect(both.status).toBe(400);
    const neither = await server.api.post(url, { body: { taskToken: delivery.body.taskToken } });
    expect(neither.status).toBe(400);
    const ok = await server.api.post(url, { body: { taskToken: delivery.body.taskToken, error: 'no luck' } });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ id, status: 'failed' });
    expect((await get(id)).error).toBe('no luck');
    // Its own token, once the task is over: 409 saying where it ended, and nothing changes; a wrong one 401.
    const again = await server.api.post(url, { body: { taskToken: delivery.body.taskToken, result: {} } });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'CONFLICT' });
    expect(again.body.error.message).toContain('failed');
    expect(again.body.error.status).toBe('failed');
    expect((await server.api.post(url, { body: { taskToken: 'wrong', result: {} } })).status).toBe(401);
    expect((await get(id)).status).toBe('failed');
  });

  it('stores the token only as a hash', async () => {
    const id = (await create()).body.data.id;
    await waitForStatus(() => get(id), ['in_progress']);
    const delivery = agentHttp.received.find((d) => d.body.taskId === id)!;
    const row = await server.prisma.task.findUniqueOrThrow({ where: { id } });
    expect(JSON.stringify(row)).not.toContain(delivery.body.taskToken);
    expect(Buffer.from(delivery.body.taskToken, 'base64url').length).toBeGreaterThanOrEqual(32);
  });
});

describe('routing', () => {
  it('picks the best matching agent and dry-runs without creating anything', async () => {
    const cheap = (await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Cheap', endpoint: agentHttp.url, capabilities: ['translate', 'french'], protocols: ['http'], priceCents: 10 } })).body.data;
    const dear = (await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Dear', endpoint: agentHttp.url, capabilities: ['translate', 'french'], protocols: ['http'], priceCents: 900 } })).body.data;
    const before = await server.prisma.task.count();
    const res = await server.api.post('/v1/tasks/route', { key: requester.apiKey, body: { capabilities: ['TRANSLATE'], protocols: ['HTTP'] } });
    expect(res.status).toBe(200);
    // Alike but for the price: the cheaper one ranks first.
    expect(res.body.data.map((a: { id: string }) => a.id)).toEqual([cheap.id, dear.id]);
    expect(res.body.data[0].score).toBeGreaterThan(res.body.data[1].score);
    const capped = await server.api.post('/v1/tasks/route', { key: requester.apiKey, body: { capabilities: ['translate'], maxPriceCents: 100 } });
    expect(capped.body.data.map((a: { id: string }) => a.id)).toEqual([cheap.id]);
    expect(await server.prisma.task.count()).toBe(before);
    for (const [body, field] of [[{ limit: 51 }, 'limit'], [{ limit: 0 }, 'limit'], [{ maxPriceCents: -1 }, 'maxPriceCents']] as const) {
      const bad = await server.api.post('/v1/tasks/route', { key: requester.apiKey, body });
      expect(bad.status).toBe(400);
      expect(bad.body.error.field).toBe(field);
    }
  });

  it('passes over an agent whose inputSchema refuses the input, and waits when every one does', async () => {
    const schema = JSON.stringify({ type: 'object', required: ['text'], properties: { text: { type: 'string' } } });
    // Made first: on equal scores the older agent is chosen, so it is the first choice for this skill.
    const strict = (await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Strict', endpoint: agentHttp.url, capabilities: ['typed-skill', 'typed-only'], inputSchema: schema } })).body.data;
    const lenient = (await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Lenient', endpoint: agentHttp.url, capabilities: ['typed-skill'] } })).body.data;
    const ranking = await server.api.post('/v1/tasks/route', { key: requester.apiKey, body: { capabilities: ['typed-skill'] } });
    expect(ranking.body.data.map((a: { id: string }) => a.id)).toEqual([strict.id, lenient.id]);
    const misfit = (await create({ agentId: undefined, capabilities: ['typed-skill'], input: { text: 5 } })).body.data;
    expect(misfit.agentId).toBe(lenient.id);
    // Input the schema accepts reaches it (a skill only it has: scores have moved with the task above).
    const fits = (await create({ agentId: undefined, capabilities: ['typed-only'], input: { text: 'hello' } })).body.data;
    expect(fits.agentId).toBe(strict.id);

    const onlyStrict = await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Only Strict', endpoint: agentHttp.url, capabilities: ['strict-only'], inputSchema: schema } });
    expect(onlyStrict.status).toBe(201);
    const waiting = await create({ agentId: undefined, capabilities: ['strict-only'], input: { words: 'no text field' } });
    expect(waiting.status).toBe(201);
    expect(waiting.body.data).toMatchObject({ status: 'pending', agentId: null });
    // Routed again (the job that runs after an agent changes, and every 30 s): its schema still refuses it.
    await server.app.services.tasks.routeWaiting(waiting.body.data.id);
    expect(await get(waiting.body.data.id)).toMatchObject({ status: 'pending', agentId: null });
    const open = (await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Open', endpoint: agentHttp.url, capabilities: ['strict-only'] } })).body.data;
    await server.app.services.tasks.routeWaiting(waiting.body.data.id);
    expect((await get(waiting.body.data.id)).agentId).toBe(open.id);
  });

  it('routes a waiting task once a matching agent appears', async () => {
    const id = (await create({ agentId: undefined, capabilities: ['late-skill'] })).body.data.id;
    expect((await get(id)).status).toBe('pending');
    await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Late', endpoint: agentHttp.url, capabilities: ['late-skill'] } });
    const task = await waitForStatus(() => get(id), ['matched', 'in_progress']);
    expect(task.status).not.toBe('pending');
  });
});
