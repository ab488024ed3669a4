// Lock order: a task that ends (cancel) while its card hold is being confirmed. Both touch the task and
// its payment; both must take them in one order (task, then payment), or PostgreSQL breaks the deadlock
// by aborting one of them (40P01), which a client sees as a 500 and which leaves the two out of step.
// On the embedded database transactions run one at a time, so this bites only on a PostgreSQL server.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPaymentWorld, type PaymentWorld } from './support/payments.js';

const ROUNDS = 40;

let world: PaymentWorld;
let owner: { id: string; apiKey: string };
let requester: { id: string; apiKey: string };
let agentId: string;

beforeAll(async () => {
  world = await startPaymentWorld('simulated');
  owner = await world.server.createUser();
  requester = await world.server.createUser();
  // Nothing listens on port 9; deliveries fail in the background, which does not matter here.
  agentId = (await world.server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Locks', endpoint: 'http://127.0.0.1:9/x', priceCents: 900 } })).body.data.id;
});
afterAll(() => world?.close());

it(`cancelling while the hold is confirmed never deadlocks and leaves task and payment in step (${ROUNDS} rounds)`, async () => {
  const api = world.server.api;
  // Tasks waiting for the requester to confirm their hold (no saved card).
  const tasks: Array<{ id: string; clientSecret: string }> = [];
  for (let i = 0; i < ROUNDS; i++) {
    const res = await api.post('/v1/tasks', { key: requester.apiKey, body: { title: `race ${i}`, description: 'd', agentId } });
    expect(res.status).toBe(201);
    tasks.push({ id: res.body.data.id, clientSecret: res.body.clientSecret });
  }
  const outcomes = await Promise.all(
    tasks.map(async ({ id, clientSecret }) => {
      const [cancel, confirm] = await Promise.all([
        api.post(`/v1/tasks/${id}/cancel`, { key: requester.apiKey }),
        api.post('/v1/billing/simulate/confirm', { key: requester.apiKey, body: { clientSecret } }),
      ]);
      return { id, cancel: cancel.status, confirm: confirm.status };
    }),
  );
  // Cancel is allowed from pending and matched alike, so it always wins; the confirmation either came
  // first (200) or found the payment released (200 released, or 409).
  expect(outcomes.filter((o) => o.cancel !== 200)).toEqual([]);
  expect(outcomes.filter((o) => o.confirm !== 200 && o.confirm !== 409)).toEqual([]);
  const rows = await world.server.prisma.task.findMany({ where: { id: { in: tasks.map((t) => t.id) } }, include: { payment: true } });
  for (const row of rows) {
    expect(row.status).toBe('cancelled');
    expect(row.payment?.status).toBe('released');
  }
});
