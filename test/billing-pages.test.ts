// What the dashboard's billing pages read and do, in GraphQL, once per payment processor: the public
// payment settings (test mode, the publishable key), a waiting hold's client secret for its requester
// only, removing the saved card, the payment history with its receipts, this month's spending, and an
// owner's earnings, transfers and onboarding state. Also the page's policy letting Stripe.js in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callBack, startTestAgent, type TestAgent } from './support/agent.js';
import { startPaymentWorld, type PaymentWorld } from './support/payments.js';
import { until } from './support/wait.js';

const PRICE = 400;
const FEE = 40; // the default 10 % platform fee

const BILLING = `query {
  billing {
    card { brand last4 }
    spentThisMonthCents
    payments { taskId taskTitle agentName method status amountCents cardBrand cardLast4 heldAt settledAt receiptUrl }
    payouts { connected onboarding owedCents transferredCents earnings { taskId taskTitle amountCents feeCents netCents transfer transferredAt } }
  }
}`;

describe.each(['stripe', 'simulated'] as const)('billing pages with the %s processor', (provider) => {
  let world: PaymentWorld;
  let agentHttp: TestAgent;
  let owner: { id: string; apiKey: string };
  let agentId: string;

  // Answers are read field by field.
  const gql = async (query: string, key?: string, variables: Record<string, unknown> = {}): Promise<{ body: any }> => ({ body: await world.server.api.graphql(query, variables, key) });

  beforeAll(async () => {
    world = await startPaymentWorld(provider);
    agentHttp = await startTestAgent();
    owner = await world.server.createUser();
    const created = await world.server.api.post('/v1/agents', { key: owner.apiKey, body: { name: `Billed ${provider}`, endpoint: agentHttp.url, priceCents: PRICE } });
    agentId = created.body.data.id;
  });
  afterAll(async () => {
    await world?.close();
    await agentHttp?.close();
  });

  const createTask = (key: string, title: string) => world.server.api.post('/v1/tasks', { key, body: { title, description: 'Do it', agentId } });

  it('tells anyone which processor takes payments, its publishable key and that this is test mode', async () => {
    const res = await gql('{ paymentSettings { processor publishableKey testMode } }');
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.paymentSettings).toEqual(
      provider === 'stripe' ? { processor: 'stripe', publishableKey: 'pk_test_x', testMode: true } : { processor: 'simulated', publishableKey: null, testMode: true },
    );
  });

  it("lets the page load Stripe.js from Stripe's origins only when Stripe takes payments", async () => {
    const page = await fetch(`${world.server.url}/billing`);
    const policy = page.headers.get('content-security-policy') ?? '';
    if (provider === 'stripe') {
      expect(policy).toContain("script-src 'self' 'unsafe-eval' https://js.stripe.com;");
      expect(policy).toContain("connect-src 'self' https://api.stripe.com;");
      expect(policy).toContain('frame-src https://js.stripe.com https://hooks.stripe.com;');
    } else {
      expect(policy).not.toContain('stripe.com');
    }
  });

  it("gives a waiting hold's client secret to its requester only, until the hold stands", async () => {
    const requester = await world.server.createUser();
    const stranger = await world.server.createUser();
    const created = await createTask(requester.apiKey, 'Waits for its hold');
    expect(created.status).toBe(201);
    const taskId = created.body.data.id;
    const query = 'query ($taskId: ID!) { taskHoldConfirmation(taskId: $taskId) { clientSecret amountCents } }';
    const mine = await gql(query, requester.apiKey, { taskId });
    expect(mine.body.data.taskHoldConfirmation).toEqual({ clientSecret: created.body.clientSecret, amountCents: PRICE });
    const theirs = await gql(query, stranger.apiKey, { taskId });
    expect(theirs.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(JSON.stringify(theirs.body)).not.toContain(created.body.clientSecret);
    // A declined attempt changes nothing: the same secret serves the retry.
    await expect(world.confirm(created.body.clientSecret, requester.apiKey, 'pm_card_declined')).rejects.toThrow();
    expect((await gql(query, requester.apiKey, { taskId })).body.data.taskHoldConfirmation.clientSecret).toBe(created.body.clientSecret);
    await world.confirm(created.body.clientSecret, requester.apiKey);
    await until('the hold stands', async () => (await world.server.prisma.payment.findUniqueOrThrow({ where: { taskId } })).status === 'authorized');
    expect((await gql(query, requester.apiKey, { taskId })).body.data.taskHoldConfirmation).toBeNull();
  });

  it('removes the saved card at the processor, so later tasks wait for their holds', async () => {
    const requester = await world.server.createUser();
    await world.server.api.post('/v1/billing/payment-method', { key: requester.apiKey, body: { paymentMethodId: 'pm_card_visa' } });
    const removed = await gql('mutation { removePaymentMethod { card { brand last4 } } }', requester.apiKey);
    expect(removed.body.data.removePaymentMethod.card).toBeNull();
    const user = await world.server.prisma.user.findUniqueOrThrow({ where: { id: requester.id } });
    expect([user.defaultPaymentMethodId, user.cardBrand, user.cardLast4]).toEqual([null, null, null]);
    if (world.standin) expect(world.standin.calls.some((c) => /^\/v1\/payment_methods\/pm_\w+\/detach$/.test(c.path))).toBe(true);
    const created = await createTask(requester.apiKey, 'After removal');
    expect(created.body.data.payment).toMatchObject({ autoCharged: false, status: 'pending' });
    expect(created.body.clientSecret).toEqual(expect.any(String));
  });

  it("lists the requester's payments with receipts and this month's spending, and the owner's earnings and transfers", async () => {
    const requester = await world.server.createUser();
    await world.server.api.post('/v1/billing/payment-method', { key: requester.apiKey, body: { paymentMethodId: 'pm_card_visa' } });
    const completed = (await createTask(requester.apiKey, 'Completed task')).body.data.id;
    const delivery = await until('the delivery', async () => agentHttp.received.find((d) => d.body.taskId === completed));
    expect((await callBack(delivery!, { result: { ok: true } })).status).toBe(200);
    const held = (await createTask(requester.apiKey, 'Held task')).body.data.id;
    const bought = await gql('mutation ($input: BuyCreditsInput!) { buyCredits(input: $input) { amountCents } }', requester.apiKey, { input: { agentId, quantity: 3 } });
    expect(bought.body.data.buyCredits.amountCents).toBe(3 * PRICE);
    // The capture job records the receipt (Stripe's charge has one; the simulated processor none).
    await until('the capture', async () => {
      const payment = await world.server.prisma.payment.findUniqueOrThrow({ where: { taskId: completed } });
      return payment.status === 'captured' && (provider === 'simulated' || payment.receiptUrl !== null);
    });

    const billing = (await gql(BILLING, requester.apiKey)).body.data.billing;
    expect(billing.payments.map((p: { taskTitle: string }) => p.taskTitle)).toEqual(['Held task', 'Completed task']);
    expect(billing.payments[1]).toMatchObject({
      taskId: completed,
      agentName: `Billed ${provider}`,
      method: 'card',
      status: 'captured',
      amountCents: PRICE,
      cardBrand: 'visa',
      cardLast4: '4242',
      heldAt: expect.any(String),
      settledAt: expect.any(String),
      receiptUrl: provider === 'stripe' ? expect.stringMatching(/^https:\/\/pay\.stripe\.com\/receipts\//) : null,
    });
    expect(billing.payments[0]).toMatchObject({ taskId: held, status: 'authorized', settledAt: null });
    // Charged this month: the captured task and the credits; a hold is not spending until captured.
    expect(billing.spentThisMonthCents).toBe(PRICE + 3 * PRICE);

    const before = (await gql(BILLING, owner.apiKey)).body.data.billing.payouts;
    const earning = before.earnings.find((e: { taskId: string }) => e.taskId === completed);
    expect(earning).toEqual({ taskId: completed, taskTitle: 'Completed task', amountCents: PRICE, feeCents: FEE, netCents: PRICE - FEE, transfer: 'owed', transferredAt: null });
    expect(before.onboarding).toBe('not_started');
    expect(before.owedCents).toBeGreaterThanOrEqual(PRICE - FEE);

    // Onboarding creates the account and pays what is owed.
    const started = await gql('mutation { startPayoutOnboarding { url } }', owner.apiKey);
    expect(started.body.data.startPayoutOnboarding.url).toEqual(expect.any(String));
    await until('the transfer', async () => (await world.server.prisma.payment.findUniqueOrThrow({ where: { taskId: completed } })).transferId !== null);
    const after = (await gql(BILLING, owner.apiKey)).body.data.billing.payouts;
    expect(after.earnings.find((e: { taskId: string }) => e.taskId === completed)).toMatchObject({ transfer: 'transferred', transferredAt: expect.any(String) });
    expect(after.owedCents).toBe(0);
    expect(after.transferredCents).toBe(before.owedCents);
    // Stripe's hosted onboarding is still to be done; the simulated one comes straight back finished.
    expect(after.onboarding).toBe(provider === 'stripe' ? 'details_needed' : 'enabled');
  });

  it('refuses billing to a stranger without credentials', async () => {
    const res = await gql(BILLING);
    expect(res.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});
