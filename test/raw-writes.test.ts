// The hot-path statements written in SQL instead of Prisma's model calls (services/payment-writes.ts,
// services/delivery-writes.ts, services/task-writes.ts, the credit take, the API key with its user, a task
// with its payment) write
// and return what the model calls did: the rows read back through Prisma equal what the raw statements
// returned, defaults and types included.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPrismaClient, type PrismaClient } from '../src/db/client.js';
import { createKysely } from '../src/db/kysely.js';
import { systemClock } from '../src/deps.js';
import { newId } from '../src/ids.js';
import { isUniqueViolation } from '../src/db/errors.js';
import { jobCall } from '../src/jobs/enqueue.js';
import { authorizePayment } from '../src/jobs/specs/payment-authorize.js';
import { accountService, createUserWithKey } from '../src/services/accounts.js';
import { useCredit } from '../src/services/credits.js';
import { recordAttempt } from '../src/services/delivery-writes.js';
import { insertPayment } from '../src/services/payment-writes.js';
import { taskWithPayment } from '../src/services/task-columns.js';
import { insertTask } from '../src/services/task-writes.js';
import { expireTask } from '../src/jobs/specs/task-expire.js';
import { Prisma } from '../src/generated/prisma/client.js';
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

it('adds the job a payment causes in the same statement, and returns the row alone', async () => {
  const other = (await prisma.task.create({ data: { id: newId('tsk'), requesterId: userId, title: 't', description: 'd', expiresAt: new Date(Date.now() + 3_600_000) } })).id;
  const runAt = new Date(Date.now() + 600_000);
  const returned = await prisma.$transaction((tx) =>
    insertPayment(tx, { id: newId('pay'), taskId: other, method: 'card', status: 'pending', amountCents: 250, payeeId: userId, createdAt: new Date() }, jobCall(authorizePayment, { taskId: other }, { runAt })),
  );
  expect(returned).toEqual(await prisma.payment.findUniqueOrThrow({ where: { taskId: other } }));
  const jobs = await prisma.$queryRaw<Array<{ task_identifier: string; run_at: Date }>>`SELECT task_identifier, run_at FROM graphile_worker.jobs WHERE key = ${`payment.authorize:${other}`}`;
  expect(jobs).toEqual([{ task_identifier: 'payment.authorize', run_at: runAt }]);
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
  const attempt = (number: number) => ({ id: newId('att'), deliveryId, number, statusCode: 503, latencyMs: 12, error: 'HTTP 503', at });
  await prisma.$transaction((tx) => recordAttempt(tx, attempt(1), { status: null, nextAttemptAt: retryAt }));
  expect(await prisma.deliveryAttempt.findMany({ where: { deliveryId }, omit: { id: true } })).toEqual([{ deliveryId, number: 1, statusCode: 503, latencyMs: 12, error: 'HTTP 503', at }]);
  expect(await prisma.delivery.findUniqueOrThrow({ where: { id: deliveryId } })).toMatchObject({ status: 'pending', nextAttemptAt: retryAt, attemptJobId: null, attemptStartedAt: null });
  await prisma.$transaction((tx) => recordAttempt(tx, { ...attempt(2), statusCode: 200, error: null }, { status: 'succeeded', nextAttemptAt: null }));
  expect(await prisma.delivery.findUniqueOrThrow({ where: { id: deliveryId } })).toMatchObject({ status: 'succeeded', nextAttemptAt: null });
  expect(await prisma.deliveryAttempt.count({ where: { deliveryId } })).toBe(2);
  // Gone: nothing of the attempt stays either.
  await expect(prisma.$transaction((tx) => recordAttempt(tx, { ...attempt(1), deliveryId: 'dlv_missing' }, { status: 'failed', nextAttemptAt: null }))).rejects.toThrow();
  expect(await prisma.deliveryAttempt.count({ where: { deliveryId: 'dlv_missing' } })).toBe(0);
});

it('reads an API key with its user as Prisma would, and nothing for a revoked or unknown key', async () => {
  const sql = createKysely(db.url, 1);
  const { user, apiKey } = await createUserWithKey(sql, { email: `${newId('e')}@example.com`, name: 'Key Holder' });
  await prisma.user.update({ where: { id: user.id }, data: { defaultPaymentMethodId: 'pm_1', cardBrand: 'visa', cardLast4: '4242', isAdmin: true } });
  const events = { publishRevokedKey: async () => {} };
  const accounts = accountService({ prisma, sql, clock: systemClock, events, logger: console } as never);
  const found = await accounts.userForApiKey(apiKey);
  expect(found?.user).toEqual(await prisma.user.findUniqueOrThrow({ where: { id: user.id } }));
  expect(found?.apiKeyId).toBe((await prisma.apiKey.findFirstOrThrow({ where: { userId: user.id } })).id);
  expect(await accounts.userForApiKey(`${apiKey}x`)).toBeNull();
  await accounts.revokeApiKey(user.id, found!.apiKeyId);
  expect(await accounts.userForApiKey(apiKey)).toBeNull();
  await sql.destroy();
});

it('reads a task with its payment, or with none, as Prisma would', async () => {
  const bare = (await prisma.task.create({ data: { id: newId('tsk'), requesterId: userId, title: 't', description: 'd', input: { a: [1] }, capabilities: ['x'], expiresAt: new Date(Date.now() + 3_600_000) } })).id;
  for (const id of [taskId, bare]) {
    expect(await taskWithPayment(prisma, id)).toEqual(await prisma.task.findUniqueOrThrow({ where: { id }, include: { payment: true } }));
  }
  expect((await taskWithPayment(prisma, taskId))?.payment?.status).toBe('pending');
  expect((await taskWithPayment(prisma, bare))?.payment).toBeNull();
  expect(await taskWithPayment(prisma, 'tsk_missing')).toBeNull();
});

it('inserts a task with its agent counted and its expiry job in one statement, as Prisma would write it', async () => {
  const agent = await prisma.agent.findFirstOrThrow({ where: { ownerId: userId } });
  const id = newId('tsk');
  const expiresAt = new Date('2026-11-27T12:00:00.000Z');
  const now = new Date('2026-11-27T10:00:00.500Z');
  const returned = await prisma.$transaction((tx) =>
    insertTask(
      tx,
      {
        id,
        requesterId: userId,
        agentId: agent.id,
        title: 'Translate',
        description: 'into French',
        input: { text: 'hello', n: [1, 2] },
        inputHash: 'abc',
        capabilities: ['translation', 'french'],
        protocols: [],
        priority: 'high',
        maxPriceCents: null,
        requirements: Prisma.DbNull,
        routing: { score: 0.5, terms: [] },
        reviewWindowSeconds: 60,
        createdAt: now,
        expiresAt,
        idempotencyKey: 'key-1',
      },
      { countFor: agent.id, now, job: jobCall(expireTask, { taskId: id }, { runAt: expiresAt }) },
    ),
  );
  const read = await prisma.task.findUniqueOrThrow({ where: { id } });
  expect(returned).toEqual(read);
  expect(read).toMatchObject({ status: 'pending', priority: 'high', capabilities: ['translation', 'french'], protocols: [], requirements: null, inputRounds: 0, result: null });
  expect((await prisma.agent.findUniqueOrThrow({ where: { id: agent.id } })).taskCount).toBe(agent.taskCount + 1);
  const jobs = await prisma.$queryRaw<Array<{ run_at: Date }>>`SELECT run_at FROM graphile_worker.jobs WHERE key = ${`task.expire:${id}`}`;
  expect(jobs).toEqual([{ run_at: expiresAt }]);
  // The same idempotency key again: the unique index refuses it as the model call's would be refused.
  const again = prisma.$transaction((tx) =>
    insertTask(tx, { id: newId('tsk'), requesterId: userId, title: 't', description: 'd', expiresAt, idempotencyKey: 'key-1' }, { countFor: null, now, job: jobCall(expireTask, { taskId: 'x' }) }),
  );
  await expect(again).rejects.toSatisfy(isUniqueViolation);
});
