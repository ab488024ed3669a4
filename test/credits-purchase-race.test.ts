// A credit purchase that races the deletion of its agent: the card is charged, then the agent is gone
// before the credits are written. Nothing is credited, the buyer gets a 404 naming agentId, and a job
// refunds the charge at the processor (the Stripe stand-in, through the real client library).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPaymentWorld, type PaymentWorld } from './support/payments.js';
import { until } from './support/wait.js';

let world: PaymentWorld;

beforeAll(async () => {
  world = await startPaymentWorld('stripe');
});
afterAll(() => world?.close());

it('refunds the charge and credits nothing when the agent is deleted during the purchase', async () => {
  const server = world.server;
  const standin = world.standin!;
  const owner = await server.createUser();
  const buyer = await server.createUser();
  const agentId = (await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Vanishing', endpoint: 'http://127.0.0.1:9/x', priceCents: 400 } })).body.data.id as string;
  await server.api.post('/v1/billing/setup-intent', { key: buyer.apiKey });
  expect((await server.api.post('/v1/billing/payment-method', { key: buyer.apiKey, body: { paymentMethodId: 'pm_card_visa' } })).status).toBe(200);

  // The deletion lands while the processor is charging the card, after the purchase checked the agent.
  const provider = server.app.services.payments.provider;
  const charge = Object.getOwnPropertyDescriptor(provider, 'charge')!.value as typeof provider.charge;
  provider.charge = async (input) => {
    const result = await charge(input);
    await server.prisma.agent.delete({ where: { id: agentId } });
    return result;
  };
  let res;
  try {
    res = await server.api.post('/v1/credits', { key: buyer.apiKey, body: { agentId, quantity: 3 } });
  } finally {
    provider.charge = charge;
  }
  expect(res.status).toBe(404);
  expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', field: 'agentId' });
  const intentId = res.body.error.refundedIntentId as string;
  expect(standin.intents.get(intentId)).toMatchObject({ status: 'succeeded', amount: 1200 });

  await until('the refund at the processor', async () => standin.refunds.get(intentId));
  expect(standin.refunds.get(intentId)).toMatchObject({ amount: 1200, status: 'succeeded' });
  expect(await server.prisma.creditBalance.count({ where: { userId: buyer.id } })).toBe(0);
  expect(await server.prisma.creditLedgerEntry.count({ where: { userId: buyer.id } })).toBe(0);
});
