// The trust moves against their own timers: 50 parallel attempts of two competing moves, exactly one
// wins and the payment is captured or released once. And a card hold's life bounds every wait.
import { describe, expect, testWith } from './support/fixtures.js';
import { makeJobsDue } from './support/jobs.js';
import { waitForStatus } from './support/agent.js';

const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
const later = (seconds: number) => void (clock.offsetMs += seconds * 1000);

const test = testWith({
  serverTime: { clock },
  serverEnv: { INPUT_TIMEOUT_SECONDS: '10000000' },
  agentProfile: { name: 'Raced', capabilities: ['raced'], protocols: ['http'], priceCents: 700 },
});
// Input requests never time out on their own here: only the card hold's life can end the wait.

const ATTEMPTS = 50;
const SEVEN_DAYS_S = 604_800;

// Runs the two moves `ATTEMPTS` times in total, interleaved, all at once; null for a move that lost.
async function race(a: () => Promise<unknown>, b: () => Promise<unknown>) {
  const runs = Array.from({ length: ATTEMPTS }, (_, i) => (i % 2 === 0 ? a : b)().then((v) => v, () => null));
  return Promise.all(runs);
}

describe('races between a move and its timer', () => {
  async function creditTask(server: any, requester: any, agent: any, extra: Record<string, unknown> = {}) {
    await server.app.services.credits.grant({ userId: requester.id, agentId: agent.id, count: 1 });
    const res = await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 'Race', description: 'd', agentId: agent.id, reviewWindowSeconds: 600, ...extra } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.id as string;
  }
  const svc = (server: any) => server.app.services.tasks;
  const owner = (id: string) => ({ id });
  const history = async (server: any, id: string) =>
    (await server.prisma.taskHistoryEntry.findMany({ where: { taskId: id }, orderBy: { at: 'asc' } })).map((h: { action: string }) => h.action);
  const ledger = async (server: any, id: string) =>
    (await server.prisma.creditLedgerEntry.findMany({ where: { taskId: id } })).map((e: { kind: string }) => e.kind).sort();
  const status = async (server: any, id: string) =>
    server.prisma.task.findUniqueOrThrow({ where: { id }, include: { payment: true } });

  async function deliveredResult(server: any, requester: any, agent: any, ownerUser: any) {
    const id = await creditTask(server, requester, agent);
    await svc(server).accept(owner(ownerUser.id), id);
    await svc(server).complete(owner(ownerUser.id), id, { answer: 1 });
    return id;
  }

  test('approve against the auto-approval', async ({ server, requester, owner: ownerUser, agent }) => {
    const id = await deliveredResult(server, requester, agent, ownerUser);
    later(601);
    await race(() => svc(server).approve(owner(requester.id), id), () => svc(server).autoApprove(id));
    const task = await status(server, id);
    expect(task.status).toBe('completed');
    expect((await history(server, id)).filter((a: string) => a === 'approve')).toHaveLength(1);
    expect(task.payment.status).toBe('captured');
    expect(await ledger(server, id)).toEqual(['use']);
  });

  test('reject against the auto-approval', async ({ server, requester, owner: ownerUser, agent }) => {
    const id = await deliveredResult(server, requester, agent, ownerUser);
    later(601);
    await race(() => svc(server).reject(owner(requester.id), id, 'no'), () => svc(server).autoApprove(id));
    const task = await status(server, id);
    const moves = (await history(server, id)).filter((a: string) => a === 'approve' || a === 'reject');
    expect(moves).toHaveLength(1);
    expect(task.status).toBe(moves[0] === 'approve' ? 'completed' : 'disputed');
    expect(task.payment.status).toBe(moves[0] === 'approve' ? 'captured' : 'authorized');
    expect(await ledger(server, id)).toEqual(['use']);
  });

  test('refund against contest', async ({ server, requester, owner: ownerUser, agent }) => {
    const id = await deliveredResult(server, requester, agent, ownerUser);
    await svc(server).reject(owner(requester.id), id, 'wrong');
    const results = await race(() => svc(server).refund(owner(ownerUser.id), id), () => svc(server).contest(owner(ownerUser.id), id, 'right'));
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    const moves = (await history(server, id)).filter((a: string) => a === 'refund' || a === 'contest');
    expect(moves).toHaveLength(1);
    const task = await status(server, id);
    if (moves[0] === 'refund') {
      expect(task.status).toBe('refunded');
      expect(await ledger(server, id)).toEqual(['refund', 'use']);
    } else {
      expect(task.status).toBe('disputed');
      expect(task.disputeContestedAt).not.toBeNull();
      expect(await ledger(server, id)).toEqual(['use']);
    }
  });

  test('an answer against the input timeout', async ({ server, requester, owner: ownerUser, agent }) => {
    const id = await creditTask(server, requester, agent);
    await svc(server).accept(owner(ownerUser.id), id);
    await svc(server).requestInput(owner(ownerUser.id), id, { message: 'More?', inputSchema: null });
    // Past INPUT_TIMEOUT_SECONDS: the timeout is due (a credit has no hold that would end the wait sooner).
    later(10_000_001);
    await race(() => svc(server).provideInput(owner(requester.id), id, { more: true }), () => svc(server).inputTimedOut(id, 1));
    const moves = (await history(server, id)).filter((a: string) => a === 'provide_input' || a === 'input_timeout');
    expect(moves).toHaveLength(1);
    const task = await status(server, id);
    expect(task.status).toBe(moves[0] === 'provide_input' ? 'in_progress' : 'cancelled');
    expect(await ledger(server, id)).toEqual(moves[0] === 'provide_input' ? ['use'] : ['refund', 'use']);
  });
});

describe("a card hold's life bounds the waiting", () => {
  // A card-paid task of a new requester (no credits; a saved card is held at creation), its hold placed
  // `ageS` seconds ago.
  async function heldTask(server: any, agent: any, ageS: number, extra: Record<string, unknown> = {}) {
    const requester = await server.createUser();
    await server.api.post('/v1/billing/payment-method', { key: requester.apiKey, body: { paymentMethodId: 'pm_card_visa' } });
    const res = await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 'Held', description: 'd', agentId: agent.id, ...extra } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.data.id as string;
    await waitForStatus(() => server.prisma.task.findUniqueOrThrow({ where: { id } }), ['in_progress', 'matched']);
    const createdAt = new Date(clock.now().getTime() - ageS * 1000);
    await server.prisma.payment.update({ where: { taskId: id }, data: { createdAt } });
    const payment = await server.prisma.payment.findUniqueOrThrow({ where: { taskId: id } });
    expect(payment).toMatchObject({ method: 'card', status: 'authorized' });
    return { id, requester, limit: new Date(createdAt.getTime() + SEVEN_DAYS_S * 1000 - 3600_000) };
  }

  test('a task waiting for input when its hold would lapse is cancelled and released', async ({ server, owner, agent }) => {
    const { id, requester, limit } = await heldTask(server, agent, 6 * 86_400);
    const asked = await server.api.post(`/v1/tasks/${id}/request-input`, { key: owner.apiKey, body: { message: 'Which?' } });
    expect(asked.body.data.status).toBe('input_required');
    clock.offsetMs += limit.getTime() - clock.now().getTime() + 1000;
    await makeJobsDue(server.prisma, { name: 'task.input-timeout', payload: { taskId: id } });
    const task = await waitForStatus(() => server.api.get(`/v1/tasks/${id}`, { key: requester.apiKey }).then((r: any) => r.body.data), ['cancelled']);
    expect(task).toMatchObject({ error: 'input_timeout', payment: { method: 'card', status: 'released' } });
  });

  test('a delivered result is approved before its hold lapses', async ({ server, owner, agent }) => {
    const { id, requester, limit } = await heldTask(server, agent, 6.9 * 86_400, { reviewWindowSeconds: 86_400 });
    const delivered = await server.api.patch(`/v1/tasks/${id}/complete`, { key: owner.apiKey, body: { result: { done: true } } });
    expect(delivered.body.data.status).toBe('delivered');
    // The window would end a day from now; the hold's limit comes first.
    expect(new Date(delivered.body.data.reviewEndsAt).getTime()).toBe(limit.getTime());
    clock.offsetMs += limit.getTime() - clock.now().getTime() + 1000;
    await makeJobsDue(server.prisma, { name: 'task.auto-approve', payload: { taskId: id } });
    const task = await waitForStatus(() => server.api.get(`/v1/tasks/${id}`, { key: requester.apiKey }).then((r: any) => r.body.data), ['completed']);
    expect(task).toMatchObject({ approvedBy: 'auto', payment: { method: 'card', status: 'captured' } });
  });
});

