// The hot-path writes done in SQL instead of Prisma's model calls (services/payment-writes.ts,
// services/delivery-writes.ts, the credit take) write and return what the model calls did: the rows
// read back through Prisma equal what the raw statements returned, defaults and types included.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPrismaClient, type PrismaClient } from '../src/db/client.js';
import { newId } from '../src/ids.js';
import { useCredit } from '../src/services/credits.js';
import { insertAttempt, releaseDelivery } from '../src/services/delivery-writes.js';
import { insertPayment } from '../src/services/payment-writes.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';

let db: TestDatabase;
let prisma: PrismaClient;
let userId: string;
let taskId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  prisma = createPrismaClient(db.url, 2);
  userId = (await prisma.user.create({ data: { id: newId('usr'), email: `${newId('e')}@example.com` } })).id;
  taskId = (await prisma.task.create({ data: { id: newId('tsk'), requesterId: userId, title: 't', description: 'd', expiresAt: new Date(Date.now() + 3_600_000) } })).id;
});
afterAll(async () => {
  await prisma?.$disconnect();
  await db?.close();
});

it('inserts a payment and returns the row Prisma reads back', async () => {
  const createdAt = new Date('2026-11-26T10:00:00.123Z');
  const returned = await prisma.$transaction((tx) =>
    insertPayment(tx, { id: newId('pay'), taskId, method: 'card', status: 'pending', amountCents: 250, payeeId: userId, createdAt, autoCharged: true, provider: 'simulated' }),
  );
  const read = await prisma.payment.findUniqueOrThrow({ where: { taskId } });
  expect(returned).toEqual(read);
  expect(read).toMatchObject({ method: 'card', status: 'pending', amountCents: 250, feeCents: 0, autoCharged: true, provider: 'simulated', heldAt: null, createdAt });
  expect(read.updatedAt).toBeInstanceOf(Date);
});

it('takes a credit only while the balance has one', async () => {
  const agentId = (await prisma.agent.create({ data: { id: newId('agt'), ownerId: userId, name: 'A', slug: newId('s'), endpoint: 'https://example.com/x' } })).id;
  await prisma.creditBalance.create({ data: { userId, agentId, balance: 1 } });
  expect(await prisma.$transaction((tx) => useCredit(tx, userId, agentId, taskId))).toBe(true);
  expect(await prisma.$transaction((tx) => useCredit(tx, userId, agentId, taskId))).toBe(false);
  expect((await prisma.creditBalance.findUniqueOrThrow({ where: { userId_agentId: { userId, agentId } } })).balance).toBe(0);
  expect(await prisma.creditLedgerEntry.count({ where: { taskId, kind: 'use' } })).toBe(1);
});

it('records an attempt and releases the delivery, and throws for a delivery that is gone', async () => {
  const agentId = (await prisma.agent.findFirstOrThrow({ where: { ownerId: userId } })).id;
  const deliveryId = newId('dlv');
  await prisma.delivery.create({ data: { id: deliveryId, taskId, agentId, attemptJobId: 'job-1', attemptStartedAt: new Date() } });
  const at = new Date('2026-11-26T10:00:01.456Z');
  const retryAt = new Date('2026-11-26T10:05:00.000Z');
  await prisma.$transaction(async (tx) => {
    await insertAttempt(tx, { id: newId('att'), deliveryId, number: 1, statusCode: 503, latencyMs: 12, error: 'HTTP 503', at });
    await releaseDelivery(tx, deliveryId, null, retryAt);
  });
  expect(await prisma.deliveryAttempt.findMany({ where: { deliveryId }, omit: { id: true } })).toEqual([{ deliveryId, number: 1, statusCode: 503, latencyMs: 12, error: 'HTTP 503', at }]);
  expect(await prisma.delivery.findUniqueOrThrow({ where: { id: deliveryId } })).toMatchObject({ status: 'pending', nextAttemptAt: retryAt, attemptJobId: null, attemptStartedAt: null });
  await prisma.$transaction((tx) => releaseDelivery(tx, deliveryId, 'succeeded', null));
  expect(await prisma.delivery.findUniqueOrThrow({ where: { id: deliveryId } })).toMatchObject({ status: 'succeeded', nextAttemptAt: null });
  await expect(prisma.$transaction((tx) => releaseDelivery(tx, 'dlv_missing', 'failed', null))).rejects.toThrow(/gone/);
});
