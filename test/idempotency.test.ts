// The Idempotency-Key header on POST /v1/tasks and POST /v1/credits: one effect per key and user within
// 24 hours, the first answer replayed with its status, 422 for another body, 409 while the first runs.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { requestFingerprint } from '../src/http/idempotency.js';
import { test, type TestUser } from './support/fixtures.js';
import type { TestServer } from './support/server.js';

let server: TestServer;
let requester: TestUser;
let agentId: string;

test.beforeAll(async ({ server: s, owner, requester: r }) => {
  [server, requester] = [s, r];
  // Nothing listens on port 9: deliveries fail in the background, which does not matter here.
  agentId = (await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Idem', endpoint: 'http://127.0.0.1:9/x', priceCents: 700 } })).body.data.id;
});

const newKey = () => `key-${randomBytes(8).toString('hex')}`;
const postTask = (key: string | null, body: Record<string, unknown>, apiKey = requester.apiKey) =>
  server.api.post('/v1/tasks', { key: apiKey, body: { description: 'd', agentId, ...body }, headers: key === null ? {} : { 'idempotency-key': key } });
const tasksTitled = (title: string) => server.prisma.task.count({ where: { title } });

describe('Idempotency-Key', () => {
  it('replays the first response and creates nothing new', async () => {
    const key = newKey();
    const first = await postTask(key, { title: 'idem-1' });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await postTask(key, { title: 'idem-1' });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await tasksTitled('idem-1')).toBe(1);
  });

  it('treats the same JSON in another key order as the same request', async () => {
    const key = newKey();
    const first = await server.api.post('/v1/tasks', { key: requester.apiKey, headers: { 'idempotency-key': key }, body: `{"title":"idem-order","description":"d","agentId":"${agentId}"}` });
    const again = await server.api.post('/v1/tasks', { key: requester.apiKey, headers: { 'idempotency-key': key }, body: `{ "agentId": "${agentId}", "description": "d", "title": "idem-order" }` });
    expect(again.body).toEqual(first.body);
    expect(await tasksTitled('idem-order')).toBe(1);
  });

  it('answers 422 for the same key with a different body', async () => {
    const key = newKey();
    await postTask(key, { title: 'idem-2' });
    const other = await postTask(key, { title: 'idem-2 changed' });
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('UNPROCESSABLE');
    expect(await tasksTitled('idem-2 changed')).toBe(0);
  });

  it('keeps no error answer: a retry after fixing the cause goes through', async () => {
    const buyer = await server.createUser();
    const key = newKey();
    const buy = () => server.api.post('/v1/credits', { key: buyer.apiKey, headers: { 'idempotency-key': key }, body: { agentId, quantity: 1 } });
    const first = await buy();
    expect(first.status).toBe(402); // no saved card yet
    await server.api.post('/v1/billing/payment-method', { key: buyer.apiKey, body: { paymentMethodId: 'pm_card_visa' } });
    const again = await buy();
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(await server.app.services.credits.balanceOf(buyer.id, agentId)).toBe(1);
    // The success is kept: a third send replays it and charges nothing more.
    const third = await buy();
    expect(third.headers.get('idempotent-replayed')).toBe('true');
    expect(await server.app.services.credits.balanceOf(buyer.id, agentId)).toBe(1);
  });

  it('lets a task whose card was declined be retried with the same key once the card is fixed', async () => {
    const payer = await server.createUser();
    const key = newKey();
    const post = () => postTask(key, { title: 'idem-declined' }, payer.apiKey);
    await server.api.post('/v1/billing/payment-method', { key: payer.apiKey, body: { paymentMethodId: 'pm_card_declined' } });
    const declined = await post();
    expect(declined.status).toBe(402);
    await server.api.post('/v1/billing/payment-method', { key: payer.apiKey, body: { paymentMethodId: 'pm_card_visa' } });
    const paid = await post();
    expect(paid.status).toBe(201);
    expect(paid.body.payment).toMatchObject({ method: 'card', autoCharged: true });
    const tasks = await server.prisma.task.findMany({ where: { title: 'idem-declined', requesterId: payer.id }, orderBy: { id: 'asc' } });
    expect(tasks.map((t) => t.status === 'failed' ? t.error : 'ok')).toEqual(['payment_declined', 'ok']);
  });

  it('returns the task already made when the first answer failed after the commit', async () => {
    const payments = server.app.services.payments;
    const authorizeCard = payments.authorizeCard;
    const key = newKey();
    // The task and its payment commit, then the step after the commit fails: the client sees a 500.
    payments.authorizeCard = async () => {
      payments.authorizeCard = authorizeCard;
      throw new Error('the connection to the processor broke');
    };
    const failed = await postTask(key, { title: 'idem-after-commit' });
    expect(failed.status).toBe(500);
    expect(await tasksTitled('idem-after-commit')).toBe(1);
    const retried = await postTask(key, { title: 'idem-after-commit' });
    expect(retried.status).toBe(201);
    expect(retried.body.clientSecret).toMatch(/^pi_/);
    expect(await tasksTitled('idem-after-commit')).toBe(1);
    const task = await server.prisma.task.findFirstOrThrow({ where: { title: 'idem-after-commit' }, include: { payment: true } });
    expect(retried.body.data.id).toBe(task.id);
    expect(task.payment?.intentId).toBe(retried.body.clientSecret.split('_secret_')[0]);
    // One hold: the retry's answer is now kept and replayed.
    const third = await postTask(key, { title: 'idem-after-commit' });
    expect(third.headers.get('idempotent-replayed')).toBe('true');
    expect(third.body).toEqual(retried.body);
  });

  it('answers 409 while the first request with the key is still running', async () => {
    const key = newKey();
    const body = { description: 'd', agentId, title: 'idem-running' };
    // The state a first request is in between claiming the key and answering.
    await server.prisma.idempotencyRecord.create({
      data: { userId: requester.id, key, requestHash: requestFingerprint('POST', '/v1/tasks', body) },
    });
    const res = await postTask(key, body);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('CONFLICT');
    expect(await tasksTitled('idem-running')).toBe(0);
  });

  it('runs concurrent repeats once', async () => {
    const key = newKey();
    const answers = await Promise.all(Array.from({ length: 8 }, () => postTask(key, { title: 'idem-race' })));
    expect(await tasksTitled('idem-race')).toBe(1);
    const created = answers.filter((a) => a.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const a of created) expect(a.body.data.id).toBe(created[0]!.body.data.id);
    expect(answers.every((a) => a.status === 201 || a.status === 409)).toBe(true);
  });

  it('keeps keys apart per user', async () => {
    const key = newKey();
    const other = await server.createUser();
    const mine = await postTask(key, { title: 'idem-users' });
    const theirs = await postTask(key, { title: 'idem-users' }, other.apiKey);
    expect(theirs.status).toBe(201);
    expect(theirs.body.data.id).not.toBe(mine.body.data.id);
    expect(await tasksTitled('idem-users')).toBe(2);
  });

  it('forgets a key after 24 hours', async () => {
    const key = newKey();
    const first = await postTask(key, { title: 'idem-old' });
    await server.prisma.idempotencyRecord.update({
      where: { userId_key: { userId: requester.id, key } },
      data: { createdAt: new Date(Date.now() - 25 * 60 * 60 * 1000) },
    });
    await server.prisma.task.update({ where: { id: first.body.data.id }, data: { createdAt: new Date(Date.now() - 25 * 60 * 60 * 1000) } });
    const later = await postTask(key, { title: 'idem-old' });
    expect(later.status).toBe(201);
    expect(later.body.data.id).not.toBe(first.body.data.id);
    expect(await tasksTitled('idem-old')).toBe(2);
  });

  it('refuses a key longer than 255 characters', async () => {
    const res = await postTask('k'.repeat(256), { title: 'idem-long' });
    expect(res.status).toBe(400);
    expect(res.body.error.field).toBe('Idempotency-Key');
    const ok = await postTask('k'.repeat(255), { title: 'idem-long' });
    expect(ok.status).toBe(201);
  });

  it('changes nothing without the header', async () => {
    await postTask(null, { title: 'idem-none' });
    await postTask(null, { title: 'idem-none' });
    expect(await tasksTitled('idem-none')).toBe(2);
  });
});
