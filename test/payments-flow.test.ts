// The payment flow end to end over HTTP, once per provider: Stripe through the official SDK against the
// local stand-in (webhooks signed with the SDK's test-header helper), and the embedded simulated provider.
// Tasks go to a real agent on loopback; the agent's owner completes or fails them.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { intentIdFromClientSecret } from '../src/payments/index.js';
import { startTestAgent, type TestAgent } from './support/agent.js';
import { startPaymentWorld, type PaymentWorld } from './support/payments.js';
import { until } from './support/wait.js';
import { openSse } from './support/subscriptions.js';

const PRICE = 2000;
const SHARE = 1800; // the price less the default 10% platform fee

describe.each(['stripe', 'simulated'] as const)('payments with the %s provider', (provider) => {
  let world: PaymentWorld;
  let agentHttp: TestAgent;
  let owner: { id: string; apiKey: string };
  let agentId: string;

  const api = () => world.server.api;
  const prisma = () => world.server.prisma;
  const services = () => world.server.app.services;

  beforeAll(async () => {
    world = await startPaymentWorld(provider);
    agentHttp = await startTestAgent();
    owner = await world.server.createUser();
    const created = await api().post('/v1/agents', { key: owner.apiKey, body: { name: `Paid ${provider}`, endpoint: agentHttp.url, priceCents: PRICE } });
    agentId = created.body.data.id;
    const connect = await api().post('/v1/billing/connect', { key: owner.apiKey });
    expect(connect.status).toBe(200);
    expect(typeof connect.body.url).toBe('string');
  });
  afterAll(async () => {
    await world?.close();
    await agentHttp?.close();
  });

  async function requesterWithCard(paymentMethodId = 'pm_card_visa') {
    const user = await world.server.createUser();
    const setup = await api().post('/v1/billing/setup-intent', { key: user.apiKey });
    expect(setup.status).toBe(201);
    const saved = await api().post('/v1/billing/payment-method', { key: user.apiKey, body: { paymentMethodId } });
    expect(saved.status).toBe(200);
    return user;
  }

  const createTask = (key: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    api().post('/v1/tasks', { key, headers, body: { title: 'Paid work', description: 'Do it', agentId, ...extra } });
  const paymentOf = (taskId: string) => prisma().payment.findUniqueOrThrow({ where: { taskId } });
  const taskOf = (taskId: string) => prisma().task.findUniqueOrThrow({ where: { id: taskId } });
  const intentsFor = (taskId: string) => [...(world.standin?.intents.values() ?? [])].filter((pi) => pi.metadata.taskId === taskId);
  const callsOn = (intentId: string, action: 'capture' | 'cancel') =>
    world.standin?.calls.filter((c) => c.path === `/v1/payment_intents/${intentId}/${action}`) ?? [];
  // The keys of a task's jobs still queued: the authorize safety net goes once the hold is recorded, and the
  // expiry once the task is finished, instead of running later to find nothing to do.
  const jobKeysOf = async (taskId: string) =>
    (await prisma().$queryRaw<Array<{ key: string }>>`SELECT key FROM graphile_worker.jobs WHERE key LIKE ${`%:${taskId}`} ORDER BY key`).map((r) => r.key);
  const delivered = (taskId: string) => until(`delivery of ${taskId}`, async () => (await taskOf(taskId)).status === 'in_progress');

  it('saves a card and shows only its brand and last digits', async () => {
    const user = await world.server.createUser();
    const setup = await api().post('/v1/billing/setup-intent', { key: user.apiKey });
    expect(setup.body.clientSecret).toMatch(/^seti_\w+_secret_\w+$/);
    const saved = await api().post('/v1/billing/payment-method', { key: user.apiKey, body: { paymentMethodId: 'pm_card_visa' } });
    expect(saved.body.data.card).toEqual({ brand: 'visa', last4: '4242' });
    const billing = await api().get('/v1/billing', { key: user.apiKey });
    expect(billing.body.data).toEqual({ card: { brand: 'visa', last4: '4242' }, credits: [], payouts: { connected: false, owedCents: 0 } });
    const bad = await api().post('/v1/billing/payment-method', { key: user.apiKey, body: { paymentMethodId: '4242424242424242' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'INVALID_INPUT', field: 'paymentMethodId' });
    expect(JSON.stringify(bad.body)).not.toContain('4242424242424242');
  });

  it('holds a saved card at creation, captures on completion and transfers the owner’s share', async () => {
    const requester = await requesterWithCard();
    const res = await createTask(requester.apiKey);
    expect(res.status).toBe(201);
    // The card is named by its brand and last four digits only, and the hold's time is kept for the timeline.
    const expectedPayment = {
      method: 'card',
      status: 'authorized',
      amountCents: PRICE,
      autoCharged: true,
      cardBrand: 'visa',
      cardLast4: '4242',
      heldAt: expect.any(String),
      settledAt: null,
    };
    expect(res.body.payment).toEqual(expectedPayment);
    expect(res.body.data.payment).toEqual(expectedPayment);
    expect(res.body).not.toHaveProperty('clientSecret');
    const taskId = res.body.data.id as string;
    expect(await jobKeysOf(taskId)).not.toContain(`payment.authorize:${taskId}`);
    expect(await jobKeysOf(taskId)).toContain(`task.expire:${taskId}`);

    if (world.standin) {
      const [intent, ...others] = intentsFor(taskId);
      expect(others).toHaveLength(0);
      expect(intent).toMatchObject({ amount: PRICE, currency: 'usd', capture_method: 'manual', status: 'requires_capture', transfer_group: taskId });
      const create = world.standin.calls.find((c) => c.path === '/v1/payment_intents' && c.body['metadata[taskId]'] === taskId)!;
      expect(create.idempotencyKey).toBe(`task:${taskId}:authorize`);
      expect(create.body).toMatchObject({ off_session: 'true', confirm: 'true', capture_method: 'manual', 'expand[0]': 'payment_method' });
    }

    await delivered(taskId);
    const done = await api().patch(`/v1/tasks/${taskId}/complete`, { key: owner.apiKey, body: { result: { ok: true } } });
    expect(done.status).toBe(200);
    expect(done.body.data.payment).toMatchObject({ status: 'captured', heldAt: res.body.payment.heldAt, settledAt: expect.any(String) });
    expect(await jobKeysOf(taskId)).not.toContain(`task.expire:${taskId}`);

    const paid = await until('the transfer', async () => {
      const p = await paymentOf(taskId);
      return p.transferId ? p : null;
    });
    expect(paid).toMatchObject({ status: 'captured', feeCents: PRICE - SHARE, payeeId: owner.id });
    if (world.standin) {
      const intent = intentsFor(taskId)[0]!;
      expect(intent).toMatchObject({ status: 'succeeded', amount_received: PRICE });
      const transfers = [...world.standin.transfers.values()].filter((t) => t.transfer_group === taskId);
      const ownerAccount = (await prisma().user.findUniqueOrThrow({ where: { id: owner.id } })).connectAccountId;
      expect(transfers).toEqual([expect.objectContaining({ id: paid.transferId, amount: SHARE, destination: ownerAccount, currency: 'usd' })]);
      expect(callsOn(intent.id, 'capture')[0]?.idempotencyKey).toBe(`task:${taskId}:capture`);
      expect(callsOn(intent.id, 'cancel')).toHaveLength(0);
    }
  });

  it('without a saved card, returns the client secret and delivers only once the hold is authorized', async () => {
    const requester = await world.server.createUser();
    const res = await createTask(requester.apiKey);
    expect(res.status).toBe(201);
    const clientSecret = res.body.clientSecret as string;
    expect(clientSecret).toMatch(/^pi_\w+_secret_\w+$/);
    const unknownCard = { cardBrand: null, cardLast4: null, heldAt: null, settledAt: null };
    expect(res.body.payment).toEqual({ method: 'card', status: 'pending', amountCents: PRICE, autoCharged: false, ...unknownCard, clientSecret });
    expect(res.body.data.status).toBe('pending');
    const taskId = res.body.data.id as string;
    // Not matched, so no delivery exists yet.
    expect(await prisma().delivery.count({ where: { taskId } })).toBe(0);
    // Until the requester confirms, the authorize job stays: it is the safety net for this hold.
    expect(await jobKeysOf(taskId)).toContain(`payment.authorize:${taskId}`);
    if (world.standin) expect(intentsFor(taskId)).toEqual([expect.objectContaining({ status: 'requires_payment_method', capture_method: 'manual' })]);

    // Confirmed with another card than the saved-card tests use: the hold names the card it stands on (the
    // simulated processor holds every payment on its one Visa).
    await world.confirm(clientSecret, requester.apiKey, 'pm_card_mastercard');
    await delivered(taskId);
    const held = world.standin ? { cardBrand: 'mastercard', cardLast4: '4444' } : { cardBrand: 'visa', cardLast4: '4242' };
    expect(await paymentOf(taskId)).toMatchObject({ status: 'authorized', ...held, heldAt: expect.any(Date), settledAt: null });
    expect(await jobKeysOf(taskId)).not.toContain(`payment.authorize:${taskId}`);

    // The processor delivers the same event again: it is handled once.
    const intentId = intentIdFromClientSecret(clientSecret)!;
    const event = { id: `evt_dup_${randomBytes(6).toString('hex')}`, type: 'payment_intent.amount_capturable_updated', object: { id: intentId, object: 'payment_intent', status: 'requires_capture' } };
    const first = await world.sendEvent(event);
    const again = await world.sendEvent(event);
    expect(first).toEqual({ status: 200, body: { received: true, duplicate: false } });
    expect(again).toEqual({ status: 200, body: { received: true, duplicate: true } });
    expect(await prisma().delivery.count({ where: { taskId } })).toBe(1);

    // The agent fails: the hold is released, never captured.
    const failed = await api().patch(`/v1/tasks/${taskId}/fail`, { key: owner.apiKey, body: { error: 'could not do it' } });
    expect(failed.body.data.payment).toMatchObject({ status: 'released', ...held, settledAt: expect.any(String) });
    expect(await jobKeysOf(taskId)).not.toContain(`task.expire:${taskId}`);
    if (world.standin) {
      await until('the cancelled intent', async () => intentsFor(taskId)[0]!.status === 'canceled');
      expect(callsOn(intentId, 'capture')).toHaveLength(0);
      expect(callsOn(intentId, 'cancel')[0]?.idempotencyKey).toBe(`task:${taskId}:release`);
    }
  });

  it('streams the payment’s steps with the task over GraphQL: the card and time of the hold, then its release', async () => {
    const requester = await world.server.createUser();
    const res = await createTask(requester.apiKey);
    const taskId = res.body.data.id as string;
    const query = 'subscription($id: ID!) { taskUpdated(id: $id) { status payment { status cardBrand cardLast4 heldAt settledAt } } }';
    const stream = await openSse(world.server.url, requester.apiKey, query, { id: taskId });
    expect(stream.status).toBe(200);
    type Seen = { status: string; payment: { status: string; cardBrand: string | null; cardLast4: string | null; heldAt: string | null; settledAt: string | null } };
    const seen = (): Seen[] =>
      [...stream.text.matchAll(/^data: (.+)$/gm)].map((m) => (JSON.parse(m[1]!) as { data: { taskUpdated: Seen } }).data.taskUpdated);
    try {
      await until('the first state', async () => seen().some((t) => t.status === 'pending'));
      await world.confirm(res.body.clientSecret as string, requester.apiKey, 'pm_card_mastercard');
      const card = world.standin ? { cardBrand: 'mastercard', cardLast4: '4444' } : { cardBrand: 'visa', cardLast4: '4242' };
      const held = await until('the hold, live', async () => seen().find((t) => t.payment.status === 'authorized') ?? null);
      expect(held.payment).toMatchObject({ ...card, heldAt: expect.any(String), settledAt: null });
      await delivered(taskId);
      expect((await api().post(`/v1/tasks/${taskId}/cancel`, { key: requester.apiKey })).status).toBe(200);
      const released = await until('the release, live', async () => seen().find((t) => t.status === 'cancelled') ?? null);
      expect(released.payment).toMatchObject({ status: 'released', ...card, heldAt: held.payment.heldAt, settledAt: expect.any(String) });
      expect(Date.parse(released.payment.settledAt!)).toBeGreaterThanOrEqual(Date.parse(held.payment.heldAt!));
      // Only the brand and last four digits ever leave the service.
      expect(stream.text).not.toMatch(/pm_|exp_|fingerprint/);
    } finally {
      stream.close();
    }
  });

  it('releases the hold when the requester cancels', async () => {
    const requester = await requesterWithCard();
    const taskId = (await createTask(requester.apiKey)).body.data.id as string;
    await delivered(taskId);
    const cancelled = await api().post(`/v1/tasks/${taskId}/cancel`, { key: requester.apiKey });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.payment).toMatchObject({ status: 'released' });
    if (world.standin) {
      await until('the cancelled intent', async () => intentsFor(taskId)[0]!.status === 'canceled');
      expect(callsOn(intentsFor(taskId)[0]!.id, 'capture')).toHaveLength(0);
    }
    // Completing afterwards is refused and captures nothing.
    const late = await api().patch(`/v1/tasks/${taskId}/complete`, { key: owner.apiKey, body: { result: {} } });
    expect(late.status).toBe(409);
    expect(await paymentOf(taskId)).toMatchObject({ status: 'released', transferId: null });
  });

  it('releases the hold when the task expires, and a late confirmation is refused', async () => {
    const requester = await world.server.createUser();
    const res = await createTask(requester.apiKey);
    const taskId = res.body.data.id as string;
    await prisma().task.update({ where: { id: taskId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await services().tasks.expire(taskId);
    expect(await taskOf(taskId)).toMatchObject({ status: 'expired' });
    expect(await paymentOf(taskId)).toMatchObject({ status: 'released' });
    if (world.standin) {
      await until('the cancelled intent', async () => intentsFor(taskId)[0]!.status === 'canceled');
      await expect(world.confirm(res.body.clientSecret, requester.apiKey)).rejects.toThrow();
    } else {
      const late = await api().post('/v1/billing/simulate/confirm', { key: requester.apiKey, body: { clientSecret: res.body.clientSecret } });
      expect(late.status).toBe(409);
    }
    // Even a (late) authorization event does not revive it: the hold is let go again, the task stays expired.
    const intentId = intentIdFromClientSecret(res.body.clientSecret)!;
    await world.sendEvent({ id: `evt_late_${randomBytes(6).toString('hex')}`, type: 'payment_intent.amount_capturable_updated', object: { id: intentId, object: 'payment_intent', status: 'requires_capture' } });
    expect(await taskOf(taskId)).toMatchObject({ status: 'expired' });
    expect(await paymentOf(taskId)).toMatchObject({ status: 'released' });
    expect(await prisma().delivery.count({ where: { taskId } })).toBe(0);
  });

  it('answers 402 for a declined saved card and the task does not go ahead', async () => {
    const requester = await requesterWithCard('pm_card_declined');
    const res = await createTask(requester.apiKey);
    expect(res.status).toBe(402);
    expect(res.body.error).toMatchObject({ code: 'PAYMENT_REQUIRED', message: expect.stringMatching(/declined/) });
    const task = await prisma().task.findFirstOrThrow({ where: { requesterId: requester.id } });
    expect(task).toMatchObject({ status: 'failed', error: 'payment_declined' });
    expect(await paymentOf(task.id)).toMatchObject({ status: 'released', failureMessage: expect.stringMatching(/declined/) });
    expect(await prisma().delivery.count({ where: { taskId: task.id } })).toBe(0);
  });

  it('charges once under retried requests and retried jobs', async () => {
    const requester = await requesterWithCard();
    const key = `retry-${randomBytes(6).toString('hex')}`;
    const first = await createTask(requester.apiKey, { title: 'Once only' }, { 'idempotency-key': key });
    const second = await createTask(requester.apiKey, { title: 'Once only' }, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await prisma().task.count({ where: { requesterId: requester.id } })).toBe(1);
    const taskId = first.body.data.id as string;

    // The authorize job and a repeated inline call after the hold: no second intent.
    await services().payments.authorizeFromJob(taskId);
    await expect(services().payments.authorizeCard(taskId)).resolves.toEqual({ autoCharged: true, clientSecret: null });
    if (world.standin) expect(intentsFor(taskId)).toHaveLength(1);

    await delivered(taskId);
    await api().patch(`/v1/tasks/${taskId}/complete`, { key: owner.apiKey, body: { result: {} } });
    const { transferId } = await until('the transfer', async () => {
      const p = await paymentOf(taskId);
      return p.transferId ? p : null;
    });
    // The capture and transfer jobs run again, as after a crash: nothing more happens.
    await services().payments.capture(taskId);
    await services().payments.transfer(taskId);
    // A second finalization (say, a stray expiry) cannot release what was captured.
    await services().deps.sql.transaction().execute((tx) => services().payments.finalize(tx, taskId, 'expired'));
    expect(await paymentOf(taskId)).toMatchObject({ status: 'captured', transferId });
    if (world.standin) {
      const intent = intentsFor(taskId)[0]!;
      expect(intent).toMatchObject({ status: 'succeeded', amount_received: PRICE });
      expect([...world.standin.transfers.values()].filter((t) => t.transfer_group === taskId)).toHaveLength(1);
      expect(callsOn(intent.id, 'cancel')).toHaveLength(0);
    }
  });

  it('keeps an owner’s share owed until they connect an account, then transfers it', async () => {
    const lateOwner = await world.server.createUser();
    const lateAgent = await startTestAgent();
    try {
      const created = await api().post('/v1/agents', { key: lateOwner.apiKey, body: { name: `Late ${provider}`, endpoint: lateAgent.url, priceCents: 1000 } });
      const requester = await requesterWithCard();
      const taskId = (await createTask(requester.apiKey, { agentId: created.body.data.id })).body.data.id as string;
      await delivered(taskId);
      await api().patch(`/v1/tasks/${taskId}/complete`, { key: lateOwner.apiKey, body: { result: {} } });
      if (world.standin) await until('the capture', async () => intentsFor(taskId)[0]!.status === 'succeeded');
      const owed = await until('the owed share', async () => {
        const billing = (await api().get('/v1/billing', { key: lateOwner.apiKey })).body.data;
        return billing.payouts.owedCents === 900 ? billing : null;
      });
      expect(owed.payouts).toEqual({ connected: false, owedCents: 900 });
      expect(await paymentOf(taskId)).toMatchObject({ status: 'captured', transferId: null });

      await api().post('/v1/billing/connect', { key: lateOwner.apiKey });
      const paid = await until('the owed transfer', async () => (await paymentOf(taskId)).transferId);
      expect(paid).toMatch(/^tr_/);
      const billing = (await api().get('/v1/billing', { key: lateOwner.apiKey })).body.data;
      expect(billing.payouts).toEqual({ connected: true, owedCents: 0 });
    } finally {
      await lateAgent.close();
    }
  });

  it('buys credits once per Idempotency-Key, and a credit pays the next task instead of the card', async () => {
    const requester = await requesterWithCard();
    const headers = { 'idempotency-key': `buy-${randomBytes(6).toString('hex')}` };
    const bought = await api().post('/v1/credits', { key: requester.apiKey, headers, body: { agentId, quantity: 3 } });
    expect(bought.status).toBe(201);
    expect(bought.body.data).toEqual({ agentId, quantity: 3, amountCents: 3 * PRICE, balance: 3 });
    const repeated = await api().post('/v1/credits', { key: requester.apiKey, headers, body: { agentId, quantity: 3 } });
    expect(repeated.status).toBe(201);
    expect(repeated.body).toEqual(bought.body);
    if (world.standin) {
      const charges = [...world.standin.intents.values()].filter((pi) => pi.metadata.userId === requester.id && pi.metadata.agentId === agentId);
      expect(charges).toEqual([expect.objectContaining({ amount: 3 * PRICE, status: 'succeeded', capture_method: 'automatic' })]);
    }

    const res = await createTask(requester.apiKey);
    expect(res.body.payment).toEqual({
      method: 'credit',
      status: 'authorized',
      amountCents: PRICE,
      autoCharged: false,
      cardBrand: null,
      cardLast4: null,
      heldAt: expect.any(String),
      settledAt: null,
    });
    if (world.standin) expect(intentsFor(res.body.data.id)).toHaveLength(0);
    const billing = (await api().get('/v1/billing', { key: requester.apiKey })).body.data;
    expect(billing.credits).toEqual([{ agentId, balance: 2, agent: expect.objectContaining({ priceCents: PRICE }) }]);
  });

  it('refuses a webhook whose signature does not verify', async () => {
    const payload = JSON.stringify({ id: 'evt_forged', type: 'payment_intent.amount_capturable_updated', data: { object: { id: 'pi_x', object: 'payment_intent' } } });
    const res = await fetch(`${world.server.url}/v1/webhooks/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` },
      body: payload,
    });
    expect(res.status).toBe(400);
    expect(await world.server.prisma.processedWebhookEvent.count({ where: { id: 'evt_forged' } })).toBe(0);
  });

  it.runIf(provider === 'stripe')('has no simulated confirmation endpoint', async () => {
    const res = await api().post('/v1/billing/simulate/confirm', { key: owner.apiKey, body: { clientSecret: 'pi_123_secret_456' } });
    expect(res.status).toBe(404);
  });
});
