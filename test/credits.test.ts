// Per-agent credits: used at matching in the same transaction, given back on fail, cancel and expiry,
// kept on completion; never below zero under concurrency; granted by the CLI; bought with the saved card.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/ids.js';
import type { TestAgent } from './support/agent.js';
import { until } from './support/wait.js';
import { runCli } from './support/processes.js';
import { testWith } from './support/fixtures.js';
import type { TestServer } from './support/server.js';

const PRICE = 500;

let server: TestServer;
let agentHttp: TestAgent;
let owner: { id: string; apiKey: string };
let agentId: string;

const test = testWith({ agentProfile: { name: 'Credit agent', priceCents: PRICE } });

test.beforeAll(async ({ server: s, owner: o, agent }) => {
  [server, owner] = [s, o];
  [agentHttp, agentId] = [agent.http, agent.id];
});

const services = () => server.app.services;
const balance = (userId: string) => services().credits.balanceOf(userId, agentId);
const createTask = (key: string) => server.api.post('/v1/tasks', { key, body: { title: 'Credit work', description: 'd', agentId } });
const delivered = (taskId: string) =>
  until('delivery', async () => (await server.prisma.task.findUniqueOrThrow({ where: { id: taskId } })).status === 'in_progress');

async function requesterWithCredits(count: number) {
  const user = await server.createUser();
  await services().credits.grant({ userId: user.id, agentId, count });
  return user;
}

describe('a credit pays for a task', () => {
  it('is used at matching and stays used when the task completes', async () => {
    const requester = await requesterWithCredits(2);
    const res = await createTask(requester.apiKey);
    expect(res.status).toBe(201);
    const noCard = { cardBrand: null, cardLast4: null, settledAt: null };
    expect(res.body.payment).toEqual({ method: 'credit', status: 'authorized', amountCents: PRICE, autoCharged: false, heldAt: expect.any(String), ...noCard });
    expect(res.body).not.toHaveProperty('clientSecret');
    expect(await balance(requester.id)).toBe(1);
    const taskId = res.body.data.id as string;
    await delivered(taskId);
    const done = await server.api.patch(`/v1/tasks/${taskId}/complete`, { key: owner.apiKey, body: { result: {} } });
    expect(done.body.data.payment).toMatchObject({ method: 'credit', status: 'captured' });
    expect(await balance(requester.id)).toBe(1);
    const ledger = await services().credits.ledger(requester.id, agentId);
    expect(ledger.map((e) => [e.kind, e.delta, e.taskId])).toEqual([
      ['grant', 2, null],
      ['use', -1, taskId],
    ]);
  });

  it.each([
    ['fail', (id: string) => server.api.patch(`/v1/tasks/${id}/fail`, { key: owner.apiKey, body: { error: 'no' } })],
    ['cancel', (id: string, key: string) => server.api.post(`/v1/tasks/${id}/cancel`, { key })],
    [
      'expiry',
      async (id: string) => {
        await server.prisma.task.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
        await services().tasks.expire(id);
      },
    ],
  ] as const)('is given back on %s', async (_name, end) => {
    const requester = await requesterWithCredits(1);
    const taskId = (await createTask(requester.apiKey)).body.data.id as string;
    expect(await balance(requester.id)).toBe(0);
    await delivered(taskId);
    await end(taskId, requester.apiKey);
    expect(await server.prisma.payment.findUniqueOrThrow({ where: { taskId } })).toMatchObject({ method: 'credit', status: 'refunded' });
    expect(await balance(requester.id)).toBe(1);
    const kinds = (await services().credits.ledger(requester.id, agentId)).map((e) => e.kind);
    expect(kinds).toEqual(['grant', 'use', 'refund']);
    // Finalizing again (a repeated job) gives nothing more back.
    await services().deps.sql.transaction().execute((tx) => services().payments.finalize(tx, taskId, 'failed'));
    expect(await balance(requester.id)).toBe(1);
  });

  it('is not used for another agent, nor for a free one', async () => {
    const requester = await requesterWithCredits(1);
    const free = (await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Free agent', endpoint: agentHttp.url } })).body.data.id;
    const res = await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 't', description: 'd', agentId: free } });
    expect(res.body.payment).toEqual({ method: 'free', status: 'authorized', amountCents: 0, autoCharged: false, cardBrand: null, cardLast4: null, heldAt: null, settledAt: null });
    expect(await balance(requester.id)).toBe(1);
  });
});

describe('50 concurrent task creations against 10 credits', () => {
  it('use exactly 10 over HTTP; the others fall back to the card', async () => {
    const requester = await requesterWithCredits(10);
    const responses = await Promise.all(Array.from({ length: 50 }, () => createTask(requester.apiKey)));
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(201));
    const methods = responses.map((r) => r.body.payment.method as string);
    expect(methods.filter((m) => m === 'credit')).toHaveLength(10);
    expect(methods.filter((m) => m === 'card')).toHaveLength(40);
    expect(await balance(requester.id)).toBe(0);
    const uses = await server.prisma.creditLedgerEntry.count({ where: { userId: requester.id, kind: 'use' } });
    expect(uses).toBe(10);
  });

  it('use exactly 10 when prepare runs in 50 concurrent matching transactions', async () => {
    const requester = await requesterWithCredits(10);
    const agent = await server.prisma.agent.findUniqueOrThrow({ where: { id: agentId } });
    const tasks = await Promise.all(
      Array.from({ length: 50 }, () =>
        server.prisma.task.create({
          data: { id: newId('tsk'), requesterId: requester.id, agentId, title: 't', description: 'd', expiresAt: new Date(Date.now() + 3_600_000) },
        }),
      ),
    );
    // 50 transactions share the pool's connections: they wait their turn instead of failing.
    const plans = await Promise.all(tasks.map((task) => services().deps.sql.transaction().execute((tx) => services().payments.prepare(tx, task, agent))));
    expect(plans.filter((p) => p.method === 'credit' && p.ready)).toHaveLength(10);
    expect(plans.filter((p) => p.method === 'card' && !p.ready)).toHaveLength(40);
    expect(await balance(requester.id)).toBe(0);
    // prepare is idempotent per task: a repeat takes no second credit and makes no second payment.
    await services().credits.grant({ userId: requester.id, agentId, count: 1 });
    const again = await services().deps.sql.transaction().execute((tx) => services().payments.prepare(tx, tasks[0]!, agent));
    expect(again.method).toBe(plans[0]!.method);
    expect(await balance(requester.id)).toBe(1);
    expect(await server.prisma.payment.count({ where: { taskId: { in: tasks.map((t) => t.id) } } })).toBe(50);
  });
});

describe('buying credits', () => {
  it('refuses a free agent, a bad quantity, and a requester without a card', async () => {
    const user = await server.createUser();
    const free = (await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Free again', endpoint: agentHttp.url } })).body.data.id;
    const freeRes = await server.api.post('/v1/credits', { key: user.apiKey, body: { agentId: free, quantity: 1 } });
    expect(freeRes.status).toBe(400);
    expect(freeRes.body.error.field).toBe('agentId');
    const zero = await server.api.post('/v1/credits', { key: user.apiKey, body: { agentId, quantity: 0 } });
    expect(zero.status).toBe(400);
    expect(zero.body.error.field).toBe('quantity');
    const missing = await server.api.post('/v1/credits', { key: user.apiKey, body: { agentId } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.field).toBe('quantity');
    const noCard = await server.api.post('/v1/credits', { key: user.apiKey, body: { agentId, quantity: 1 } });
    expect(noCard.status).toBe(402);
    const unknown = await server.api.post('/v1/credits', { key: user.apiKey, body: { agentId: 'agt_nope', quantity: 1 } });
    expect(unknown.status).toBe(404);
  });

  it('declines a purchase on a declined card and adds nothing', async () => {
    const user = await server.createUser();
    await server.api.post('/v1/billing/payment-method', { key: user.apiKey, body: { paymentMethodId: 'pm_card_declined' } });
    const res = await server.api.post('/v1/credits', { key: user.apiKey, body: { agentId, quantity: 2 } });
    expect(res.status).toBe(402);
    expect(await balance(user.id)).toBe(0);
  });
});

describe('the CLI', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'credits-cli-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('grants credits: credits grant --user U --agent A --count N --json', async () => {
    const user = await server.createUser();
    const env = { DATABASE_URL: server.db.url, DATA_DIR: dataDir };
    const run = await runCli(['credits', 'grant', '--user', user.id, '--agent', agentId, '--count', '4', '--json'], env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ userId: user.id, agentId, balance: 4, granted: 4 });
    const billing = (await server.api.get('/v1/billing', { key: user.apiKey })).body.data;
    expect(billing.credits).toEqual([expect.objectContaining({ agentId, balance: 4 })]);

    const bad = await runCli(['credits', 'grant', '--user', user.id, '--agent', agentId, '--count', '0', '--json'], env);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stderr).error.code).toBe('INVALID_INPUT');
    const unknown = await runCli(['credits', 'grant', '--user', user.id, '--agent', 'agt_missing', '--count', '1', '--json'], env);
    expect(JSON.parse(unknown.stderr).error.code).toBe('NOT_FOUND');
  }, 120_000);
});
