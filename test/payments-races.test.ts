// The awkward moments of a card payment, against the Stripe stand-in: a task that ends while its hold is
// being placed, a processor outage at creation and at capture, and a response lost on the way back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/ids.js';
import { paymentService } from '../src/services/payments/index.js';
import type { PaymentProvider } from '../src/payments/index.js';
import { startTestAgent, type TestAgent } from './support/agent.js';
import { startPaymentWorld, type PaymentWorld } from './support/payments.js';
import { until } from './support/wait.js';

const PRICE = 1500;

let world: PaymentWorld;
let agentHttp: TestAgent;
let owner: { id: string; apiKey: string };
let agentId: string;

beforeAll(async () => {
  world = await startPaymentWorld('stripe');
  agentHttp = await startTestAgent();
  owner = await world.server.createUser();
  agentId = (await world.server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Racy', endpoint: agentHttp.url, priceCents: PRICE } })).body.data.id;
  await world.server.api.post('/v1/billing/connect', { key: owner.apiKey });
});
afterAll(async () => {
  await world?.close();
  await agentHttp?.close();
});

const api = () => world.server.api;
const prisma = () => world.server.prisma;
const services = () => world.server.app.services;
const intentsFor = (taskId: string) => [...world.standin!.intents.values()].filter((pi) => pi.metadata.taskId === taskId);
const paymentOf = (taskId: string) => prisma().payment.findUniqueOrThrow({ where: { taskId } });

async function requesterWithCard() {
  const user = await world.server.createUser();
  await api().post('/v1/billing/payment-method', { key: user.apiKey, body: { paymentMethodId: 'pm_card_visa' } });
  return user;
}

describe('card payment races', () => {
  it('lets go of a hold placed after the task already ended', async () => {
    const requester = await requesterWithCard();
    // A task matched to the agent whose hold is not placed yet: the moment between commit and authorizeCard.
    const agent = await prisma().agent.findUniqueOrThrow({ where: { id: agentId } });
    const task = await prisma().task.create({
      data: { id: newId('tsk'), requesterId: requester.id, agentId, title: 'race', description: 'd', expiresAt: new Date(Date.now() + 3_600_000) },
    });
    const plan = await services().deps.sql.transaction().execute((tx) => services().payments.prepare(tx, task, agent));
    expect(plan).toMatchObject({ method: 'card', ready: false, payment: { taskId: task.id, status: 'pending' } });

    // The requester cancels while the processor is placing the hold.
    const real = services().payments.provider;
    const racing: PaymentProvider = {
      ...real,
      async authorize(input) {
        const cancelled = await api().post(`/v1/tasks/${task.id}/cancel`, { key: requester.apiKey });
        expect(cancelled.status).toBe(200);
        return real.authorize(input);
      },
    };
    const hooksCalled: string[] = [];
    const payments = paymentService(services().deps, { onAuthorized: async (_tx, id) => void hooksCalled.push(id) }, racing);
    await expect(payments.authorizeCard(task.id)).resolves.toEqual({ autoCharged: true, clientSecret: null });

    expect(hooksCalled).toEqual([]);
    const [intent] = intentsFor(task.id);
    expect(await paymentOf(task.id)).toMatchObject({ status: 'released', intentId: intent!.id });
    await until('the late hold to be cancelled', async () => intentsFor(task.id)[0]!.status === 'canceled');
    expect(world.standin!.calls.filter((c) => c.path === `/v1/payment_intents/${intent!.id}/capture`)).toHaveLength(0);
    expect(await prisma().task.findUniqueOrThrow({ where: { id: task.id } })).toMatchObject({ status: 'cancelled' });
    expect(await prisma().delivery.count({ where: { taskId: task.id } })).toBe(0);
  });

  it('answers without a hold during an outage, and the authorize job places it later, once', async () => {
    const requester = await requesterWithCard();
    // The customer exists already; the next POST is the hold, refused three times (the SDK retries twice).
    world.standin!.failNext('server_error', 3);
    const res = await api().post('/v1/tasks', { key: requester.apiKey, body: { title: 'outage', description: 'd', agentId } });
    expect(res.status).toBe(201);
    expect(res.body.payment).toMatchObject({ method: 'card', status: 'pending', autoCharged: true });
    const taskId = res.body.data.id as string;
    expect(intentsFor(taskId)).toHaveLength(0);

    await services().payments.authorizeFromJob(taskId);
    expect(await paymentOf(taskId)).toMatchObject({ status: 'authorized' });
    expect(intentsFor(taskId)).toEqual([expect.objectContaining({ status: 'requires_capture' })]);
    await until('delivery', async () => (await prisma().task.findUniqueOrThrow({ where: { id: taskId } })).status === 'in_progress');
    // The job's own run later finds nothing to do.
    await services().payments.authorizeFromJob(taskId);
    expect(intentsFor(taskId)).toHaveLength(1);
  });

  it('retries a capture through an outage and a lost response, and captures once', async () => {
    const requester = await requesterWithCard();
    const taskId = (await api().post('/v1/tasks', { key: requester.apiKey, body: { title: 'capture', description: 'd', agentId } })).body.data.id as string;
    await until('delivery', async () => (await prisma().task.findUniqueOrThrow({ where: { id: taskId } })).status === 'in_progress');
    const intentId = intentsFor(taskId)[0]!.id;
    // The first capture job attempt meets three 500s (it fails and is retried by the worker); the next
    // attempt's response is lost after Stripe captured, and the SDK repeats it under the same key.
    world.standin!.failNext('server_error', 3);
    world.standin!.failNext('drop_after', 1);
    await api().patch(`/v1/tasks/${taskId}/complete`, { key: owner.apiKey, body: { result: {} } });
    await until('the transfer', async () => (await paymentOf(taskId)).transferId, 30_000);
    const captures = world.standin!.calls.filter((c) => c.path === `/v1/payment_intents/${intentId}/capture`);
    // Three refused, one lost after the work, one replayed: five requests, one key, one capture.
    expect(captures).toHaveLength(5);
    expect(captures.at(-1)!.replayed).toBe(true);
    expect(new Set(captures.map((c) => c.idempotencyKey))).toEqual(new Set([`task:${taskId}:capture`]));
    expect(intentsFor(taskId)[0]).toMatchObject({ status: 'succeeded', amount_received: PRICE });
    expect([...world.standin!.transfers.values()].filter((t) => t.transfer_group === taskId)).toHaveLength(1);
  }, 60_000);
});
