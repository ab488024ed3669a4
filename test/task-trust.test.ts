// Trust between requester and agent over REST and GraphQL: input requests and answers (the expiry clock
// stops while the task waits), review before payment, disputes, evidence hashes, and the refusals. Time
// is a clock the test moves; jobs due at a later time are made due instead of waited for.
import { createHash } from 'node:crypto';
import { callBack, waitForStatus, type ReceivedDelivery } from './support/agent.js';
import { describe, expect, testWith } from './support/fixtures.js';
import { makeJobsDue, untilNoJobDue } from './support/jobs.js';
import { until } from './support/wait.js';

// The service's clock: real time plus whatever the test has moved it on by.
const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
const later = (seconds: number) => void (clock.offsetMs += seconds * 1000);

const test = testWith({
  serverTime: { clock },
  agentProfile: { name: 'Careful', capabilities: ['careful'], protocols: ['http'], priceCents: 500 },
});

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('trust between requester and agent', () => {
  // A task for the fixture agent, paid by one of the requester's credits, delivered: the agent's copy of it.
  async function deliveredTask(
    { server, requester, agent }: { server: any; requester: any; agent: any },
    body: Record<string, unknown> = {},
  ): Promise<{ id: string; delivery: ReceivedDelivery }> {
    await server.app.services.credits.grant({ userId: requester.id, agentId: agent.id, count: 1 });
    const res = await server.api.post('/v1/tasks', {
      key: requester.apiKey,
      body: { title: 'Check it', description: 'Carefully', agentId: agent.id, input: { b: 2, a: 1 }, ...body },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // The agent may still receive other tasks' deliveries (answers to input requests): wait for this one's.
    const delivery = await until('the task delivered', () => agent.http.received.find((d: ReceivedDelivery) => d.body.taskId === res.body.data.id && d.body.type === undefined));
    await waitForStatus(() => getTask(server, requester, res.body.data.id), ['in_progress']);
    return { id: res.body.data.id, delivery };
  }

  const getTask = (server: any, user: any, id: string) => server.api.get(`/v1/tasks/${id}`, { key: user.apiKey }).then((r: any) => r.body.data);

  async function ledgerKinds(server: any, taskId: string): Promise<string[]> {
    const rows = await server.prisma.creditLedgerEntry.findMany({ where: { taskId }, orderBy: { createdAt: 'asc' } });
    return rows.map((r: { kind: string }) => r.kind);
  }

  test('the input hash is taken at creation, over the canonical JSON, and delivered signed', async ({ server, requester, agent }) => {
    const { id, delivery } = await deliveredTask({ server, requester, agent });
    const task = await getTask(server, requester, id);
    expect(task.inputHash).toBe(sha256('{"a":1,"b":2}'));
    expect(delivery.body.inputHash).toBe(task.inputHash);
    expect(delivery.signatureValid).toBe(true);
  });

  test('an agent asks for input on the callback; the answer is checked, delivered, and the clock stopped meanwhile', async ({ server, requester, owner, agent }) => {
    const { id, delivery } = await deliveredTask({ server, requester, agent });
    const before = await getTask(server, requester, id);
    const schema = { type: 'object', required: ['city'], properties: { city: { type: 'string', minLength: 2 } } };
    const asked = await callBack(delivery, { inputRequired: { message: 'Which city?', inputSchema: schema } });
    expect(asked.status).toBe(200);
    expect(asked.body.data).toEqual({ id, status: 'input_required' });
    const waiting = await getTask(server, requester, id);
    expect(waiting).toMatchObject({ status: 'input_required', inputRequest: { message: 'Which city?', inputSchema: schema }, inputRounds: 1 });

    // Forty minutes pass while the task waits: its expiry moves by as much.
    later(40 * 60);
    const bad = await server.api.post(`/v1/tasks/${id}/input`, { key: requester.apiKey, body: { input: { city: 'X' } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'INVALID_INPUT', field: 'input' });
    const notAnObject = await server.api.post(`/v1/tasks/${id}/input`, { key: requester.apiKey, body: { input: [1] } });
    expect(notAnObject.status).toBe(400);
    expect(notAnObject.body.error.field).toBe('input');
    const stranger = await server.api.post(`/v1/tasks/${id}/input`, { key: owner.apiKey, body: { input: { city: 'Oslo' } } });
    expect(stranger.status).toBe(403);

    const answered = await server.api.post(`/v1/tasks/${id}/input`, { key: requester.apiKey, body: { input: { city: 'Oslo' } } });
    expect(answered.status).toBe(200);
    expect(answered.body.data.status).toBe('in_progress');
    const moved = new Date(answered.body.data.expiresAt).getTime() - new Date(before.expiresAt).getTime();
    expect(moved).toBeGreaterThanOrEqual(40 * 60_000);
    expect(moved).toBeLessThan(41 * 60_000);
    // The expiry job moved with it, added with the input's delivery (one add_jobs call).
    const [expiry] = await server.prisma.$queryRaw<Array<{ run_at: Date }>>`SELECT run_at FROM graphile_worker.jobs WHERE key = ${`task.expire:${id}`}`;
    expect(expiry?.run_at.getTime()).toBe(new Date(answered.body.data.expiresAt).getTime());

    const inputDelivery = await until('the input delivered', () =>
      agent.http.received.find((d: ReceivedDelivery) => d.body.taskId === id && d.headers['x-service-event'] === 'task.input'),
    );
    expect(inputDelivery.signatureValid).toBe(true);
    expect(inputDelivery.body).toMatchObject({ type: 'task.input', taskId: id, round: 1, input: { city: 'Oslo' }, inputHash: sha256('{"city":"Oslo"}') });

    // The same token finishes the task.
    const done = await callBack(inputDelivery, { result: { weather: 'rain' } });
    expect(done.body.data.status).toBe('completed');
    const history = await server.api.get(`/v1/tasks/${id}/history`, { key: requester.apiKey });
    expect(history.body.data.map((h: { action: string }) => h.action)).toEqual(['match', 'delivered', 'request_input', 'provide_input', 'complete']);
    expect(history.body.data[2]).toMatchObject({ actor: 'agent', actorId: agent.id, fromStatus: 'in_progress', toStatus: 'input_required', note: 'Which city?' });
    expect(history.body.data[3]).toMatchObject({ actor: 'requester', actorId: requester.id, data: { round: 1, input: { city: 'Oslo' } } });
  });

  test('the owner asks for input over REST; refusals name the field, the person and the state', async ({ server, requester, owner, agent }) => {
    const { id } = await deliveredTask({ server, requester, agent });
    const url = `/v1/tasks/${id}/request-input`;
    expect((await server.api.post(url, { key: owner.apiKey, body: { message: '' } })).body.error).toMatchObject({ code: 'INVALID_INPUT', field: 'message' });
    const badSchema = await server.api.post(url, { key: owner.apiKey, body: { message: 'More?', inputSchema: { type: 'object', properties: { a: { pattern: '(?=x)' } } } } });
    expect(badSchema.status).toBe(400);
    expect(badSchema.body.error.field).toBe('inputSchema');
    expect((await server.api.post(url, { key: requester.apiKey, body: { message: 'More?' } })).status).toBe(403);
    expect((await server.api.post(`/v1/tasks/tsk_missing/request-input`, { key: owner.apiKey, body: { message: 'More?' } })).status).toBe(404);
    const asked = await server.api.post(url, { key: owner.apiKey, body: { message: 'More?' } });
    expect(asked.status).toBe(200);
    expect(asked.body.data).toMatchObject({ status: 'input_required', inputRequest: { message: 'More?' } });
    const again = await server.api.post(url, { key: owner.apiKey, body: { message: 'More?' } });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ status: 'input_required' });
    // Without a schema any object will do.
    expect((await server.api.post(`/v1/tasks/${id}/input`, { key: requester.apiKey, body: { input: { anything: true } } })).status).toBe(200);
    const cancel = await server.api.post(`/v1/tasks/${id}/input`, { key: requester.apiKey, body: { input: {} } });
    expect(cancel.status).toBe(409);
    expect(cancel.body.error).toMatchObject({ status: 'in_progress' });
  });

  test('at most ten input rounds', async ({ server, requester, owner, agent }) => {
    const { id } = await deliveredTask({ server, requester, agent });
    for (let round = 1; round <= 10; round++) {
      expect((await server.api.post(`/v1/tasks/${id}/request-input`, { key: owner.apiKey, body: { message: `Round ${round}` } })).status).toBe(200);
      expect((await server.api.post(`/v1/tasks/${id}/input`, { key: requester.apiKey, body: { input: { round } } })).status).toBe(200);
    }
    const eleventh = await server.api.post(`/v1/tasks/${id}/request-input`, { key: owner.apiKey, body: { message: 'One more' } });
    expect(eleventh.status).toBe(409);
    expect(eleventh.body.error.message).toMatch(/at most 10/);
  });

  test('an unanswered input request cancels the task and gives the credit back', async ({ server, requester, owner, agent }) => {
    const { id } = await deliveredTask({ server, requester, agent });
    await server.api.post(`/v1/tasks/${id}/request-input`, { key: owner.apiKey, body: { message: 'Anyone?' } });
    // The job is not due before INPUT_TIMEOUT_SECONDS (a day) has passed on the clock.
    later(3600);
    await makeJobsDue(server.prisma, { name: 'task.input-timeout', payload: { taskId: id } });
    await untilNoJobDue(server.prisma, { name: 'task.input-timeout', payload: { taskId: id } });
    expect((await getTask(server, requester, id)).status).toBe('input_required');
    later(86_400);
    await makeJobsDue(server.prisma, { name: 'task.input-timeout', payload: { taskId: id } });
    const cancelled = await waitForStatus(() => getTask(server, requester, id), ['cancelled']);
    expect(cancelled).toMatchObject({ error: 'input_timeout', payment: { method: 'credit', status: 'refunded' } });
    expect(await ledgerKinds(server, id)).toEqual(['use', 'refund']);
  });

  test('review before payment: the result waits, approval takes the credit', async ({ server, requester, owner, agent }) => {
    const { id, delivery } = await deliveredTask({ server, requester, agent }, { reviewWindowSeconds: 3600 });
    expect((await callBack(delivery, { result: { z: 1, answer: 42 } })).body.data.status).toBe('delivered');
    const delivered = await getTask(server, requester, id);
    expect(delivered).toMatchObject({ status: 'delivered', result: { answer: 42, z: 1 }, resultHash: sha256('{"answer":42,"z":1}'), payment: { status: 'authorized' } });
    expect(new Date(delivered.reviewEndsAt).getTime() - clock.now().getTime()).toBeGreaterThan(3500_000);
    expect((await server.api.post(`/v1/tasks/${id}/approve`, { key: owner.apiKey })).status).toBe(403);
    const approved = await server.api.post(`/v1/tasks/${id}/approve`, { key: requester.apiKey });
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({ status: 'completed', approvedBy: 'requester', payment: { status: 'captured' } });
    const again = await server.api.post(`/v1/tasks/${id}/approve`, { key: requester.apiKey });
    expect(again.status).toBe(409);
    expect(again.body.error.status).toBe('completed');
    expect(await ledgerKinds(server, id)).toEqual(['use']);
  });

  test('a review window that passes approves on its own', async ({ server, requester, agent }) => {
    const { id, delivery } = await deliveredTask({ server, requester, agent }, { reviewWindowSeconds: 600 });
    await callBack(delivery, { result: { ok: true } });
    later(601);
    await makeJobsDue(server.prisma, { name: 'task.auto-approve', payload: { taskId: id } });
    const done = await waitForStatus(() => getTask(server, requester, id), ['completed']);
    expect(done).toMatchObject({ approvedBy: 'auto', payment: { status: 'captured' } });
    const history = (await server.api.get(`/v1/tasks/${id}/history`, { key: requester.apiKey })).body.data;
    expect(history.at(-1)).toMatchObject({ action: 'approve', actor: 'system', fromStatus: 'delivered', toStatus: 'completed' });
  });

  test('a rejection opens a dispute that the owner refunds', async ({ server, requester, owner, agent }) => {
    const { id, delivery } = await deliveredTask({ server, requester, agent }, { reviewWindowSeconds: 600 });
    const early = await server.api.post(`/v1/tasks/${id}/reject`, { key: requester.apiKey, body: { reason: 'Not yet' } });
    expect(early.status).toBe(409);
    expect(early.body.error.status).toBe('in_progress');
    await callBack(delivery, { result: { ok: false } });
    for (const reason of ['', ' ', 'x'.repeat(1025)]) {
      const bad = await server.api.post(`/v1/tasks/${id}/reject`, { key: requester.apiKey, body: { reason } });
      expect(bad.status).toBe(400);
      expect(bad.body.error.field).toBe('reason');
    }
    expect((await server.api.post(`/v1/tasks/${id}/reject`, { key: requester.apiKey, body: {} })).body.error.field).toBe('reason');
    expect((await server.api.post(`/v1/tasks/${id}/reject`, { key: owner.apiKey, body: { reason: 'Mine' } })).status).toBe(403);
    const rejected = await server.api.post(`/v1/tasks/${id}/reject`, { key: requester.apiKey, body: { reason: 'Wrong answer' } });
    expect(rejected.body.data).toMatchObject({ status: 'disputed', disputeReason: 'Wrong answer', payment: { status: 'authorized' } });
    expect((await server.api.post(`/v1/tasks/${id}/refund`, { key: requester.apiKey })).status).toBe(403);
    const refunded = await server.api.post(`/v1/tasks/${id}/refund`, { key: owner.apiKey });
    expect(refunded.status).toBe(200);
    expect(refunded.body.data).toMatchObject({ status: 'refunded', payment: { status: 'refunded' } });
    expect(await ledgerKinds(server, id)).toEqual(['use', 'refund']);
    const actions = (await server.api.get(`/v1/tasks/${id}/history`, { key: owner.apiKey })).body.data.map((h: any) => `${h.action}:${h.actor}`);
    expect(actions.slice(-3)).toEqual(['deliver_result:agent', 'reject:requester', 'refund:agent_owner']);
  });

  test('a contested dispute waits for an operator, who settles it', async ({ server, requester, owner, agent }) => {
    const { id, delivery } = await deliveredTask({ server, requester, agent }, { reviewWindowSeconds: 600 });
    await callBack(delivery, { result: { ok: true } });
    await server.api.post(`/v1/tasks/${id}/reject`, { key: requester.apiKey, body: { reason: 'I did not like it' } });
    expect((await server.api.post(`/v1/tasks/${id}/contest`, { key: owner.apiKey, body: { statement: '' } })).body.error.field).toBe('statement');
    const contested = await server.api.post(`/v1/tasks/${id}/contest`, { key: owner.apiKey, body: { statement: 'The answer is correct' } });
    expect(contested.body.data).toMatchObject({ status: 'disputed', disputeStatement: 'The answer is correct' });
    expect(contested.body.data.disputeContestedAt).not.toBeNull();
    const refund = await server.api.post(`/v1/tasks/${id}/refund`, { key: owner.apiKey });
    expect(refund.status).toBe(409);
    expect(refund.body.error).toMatchObject({ status: 'disputed', contested: true });
    // The owner's silence no longer refunds.
    later(300_000);
    await makeJobsDue(server.prisma, { name: 'task.dispute-timeout', payload: { taskId: id } });
    await untilNoJobDue(server.prisma, { name: 'task.dispute-timeout', payload: { taskId: id } });
    expect((await getTask(server, requester, id)).status).toBe('disputed');
    const settled = await server.app.services.tasks.resolveDispute(id, 'pay', 'Checked: the answer was right');
    expect(settled).toMatchObject({ status: 'completed', approvedBy: 'operator' });
    expect((await getTask(server, requester, id)).payment.status).toBe('captured');
    const last = (await server.api.get(`/v1/tasks/${id}/history`, { key: requester.apiKey })).body.data.at(-1);
    expect(last).toMatchObject({ action: 'resolve_pay', actor: 'operator', note: 'Checked: the answer was right' });
  });

  test('an owner who does not answer a dispute refunds by default', async ({ server, requester, agent }) => {
    const { id, delivery } = await deliveredTask({ server, requester, agent }, { reviewWindowSeconds: 600 });
    await callBack(delivery, { result: { ok: true } });
    await server.api.post(`/v1/tasks/${id}/reject`, { key: requester.apiKey, body: { reason: 'Wrong' } });
    later(259_201);
    await makeJobsDue(server.prisma, { name: 'task.dispute-timeout', payload: { taskId: id } });
    const refunded = await waitForStatus(() => getTask(server, requester, id), ['refunded']);
    expect(refunded.payment.status).toBe('refunded');
    expect(await ledgerKinds(server, id)).toEqual(['use', 'refund']);
  });

  test('creation refuses a review window that does not fit in a card hold', async ({ server, requester, agent }) => {
    const create = (extra: Record<string, unknown>) =>
      server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 't', description: 'd', agentId: agent.id, ...extra } });
    for (const reviewWindowSeconds of [-1, 1.5, 'soon']) {
      const res = await create({ reviewWindowSeconds });
      expect(res.status).toBe(400);
      expect(res.body.error.field).toBe('reviewWindowSeconds');
    }
    const tooLong = await create({ expiresInMinutes: 10_080, reviewWindowSeconds: 1 });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toMatchObject({ code: 'INVALID_INPUT', field: 'reviewWindowSeconds' });
    expect((await create({ expiresInMinutes: 10_000, reviewWindowSeconds: 4_800 })).status).toBe(201);
  });

  test('the same moves through GraphQL', async ({ server, requester, owner, agent }) => {
    const { id, delivery } = await deliveredTask({ server, requester, agent }, { reviewWindowSeconds: 600 });
    const gql = (key: string, query: string, variables: Record<string, unknown>) => server.api.post('/graphql', { key, body: { query, variables } });
    const asked = await gql(owner.apiKey, 'mutation($id: ID!) { requestTaskInput(id: $id, input: { message: "Size?" }) { status inputRequest } }', { id });
    expect(asked.body.data.requestTaskInput).toEqual({ status: 'input_required', inputRequest: { message: 'Size?' } });
    const answered = await gql(requester.apiKey, 'mutation($id: ID!) { provideTaskInput(id: $id, input: { size: 3 }) { status } }', { id });
    expect(answered.body.data.provideTaskInput.status).toBe('in_progress');
    await callBack(delivery, { result: { size: 3 } });
    const wrong = await gql(owner.apiKey, 'mutation($id: ID!) { rejectTask(id: $id, reason: "no") { status } }', { id });
    expect(wrong.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const empty = await gql(requester.apiKey, 'mutation($id: ID!) { rejectTask(id: $id, reason: "") { status } }', { id });
    expect(empty.body.errors[0].extensions).toMatchObject({ code: 'INVALID_INPUT', field: 'reason' });
    const rejected = await gql(requester.apiKey, 'mutation($id: ID!) { rejectTask(id: $id, reason: "too small") { status disputeReason } }', { id });
    expect(rejected.body.data.rejectTask).toEqual({ status: 'disputed', disputeReason: 'too small' });
    const contested = await gql(owner.apiKey, 'mutation($id: ID!) { contestTask(id: $id, statement: "it is right") { status } }', { id });
    expect(contested.body.data.contestTask.status).toBe('disputed');
    const refund = await gql(owner.apiKey, 'mutation($id: ID!) { refundTask(id: $id) { status } }', { id });
    expect(refund.body.errors[0].extensions).toMatchObject({ code: 'CONFLICT' });
    const history = await gql(requester.apiKey, 'query($id: ID!) { task(id: $id) { history { action actor toStatus } } }', { id });
    expect(history.body.data.task.history.map((h: { action: string }) => h.action)).toEqual([
      'match', 'delivered', 'request_input', 'provide_input', 'deliver_result', 'reject', 'contest',
    ]);
  });
});
