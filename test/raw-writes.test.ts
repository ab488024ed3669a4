// The hot-path statements written in SQL instead of Prisma's model calls (the stores in src/stores/, the
// delivery attempt's record, the credit take, the API key, session and app token with their user) write
// and return what the model calls did: the rows read back through Prisma equal what the statements
// returned, defaults and types included. The stores run in a Kysely transaction (as the services'
// transactions do) and on the pool directly, and each test runs both ways.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPrismaClient, type PrismaClient } from '../src/db/client.js';
import { createKysely, type Sql, type SqlDb } from '../src/db/kysely.js';
import { systemClock } from '../src/deps.js';
import { newId } from '../src/ids.js';
import { isUniqueViolation } from '../src/db/errors.js';
import { jobCall } from '../src/stores/job-store.js';
import { insertPayment } from '../src/stores/payment-store.js';
import { applyMove, assignAgent, callbackTask, insertTask, taskWithPayment } from '../src/stores/task-store.js';
import { json } from '../src/stores/json.js';
import { jobKey } from '../src/jobs/spec.js';
import { authorizePayment } from '../src/jobs/specs/payment-authorize.js';
import { accountServices, createUserWithKey } from '../src/services/accounts/index.js';
import { giveCreditBack, takeCredit } from '../src/stores/credit-store.js';
import { recordAttempt } from '../src/stores/delivery-store.js';
import { insertSession, sessionWithUser } from '../src/stores/session-store.js';
import { accessTokenWithUser, insertClient, insertGrant, insertTokens } from '../src/stores/oauth-store.js';
import { expireTask } from '../src/jobs/specs/task-expire.js';
import { deliverTask } from '../src/jobs/specs/task-deliver.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';

let db: TestDatabase;
let prisma: PrismaClient;
let kysely: Sql;
let userId: string;

// A store's work in a Kysely transaction, or on the pool without one.
const WAYS = {
  'in a transaction': <T>(work: (db: SqlDb) => Promise<T>) => kysely.transaction().execute(work),
  'on the pool': <T>(work: (db: SqlDb) => Promise<T>) => work(kysely),
};
const each = it.each(Object.entries(WAYS));
const newTask = async () =>
  (await prisma.task.create({ data: { id: newId('tsk'), requesterId: userId, title: 't', description: 'd', expiresAt: new Date(Date.now() + 3_600_000) } })).id;

beforeAll(async () => {
  db = await createTestDatabase();
  prisma = createPrismaClient(db.url, 2);
  kysely = createKysely(db.url, 2);
  userId = (await prisma.user.create({ data: { id: newId('usr'), email: `${newId('e')}@example.com` } })).id;
});
afterAll(async () => {
  await prisma?.$disconnect();
  await kysely?.destroy();
  await db?.close();
});

each('inserts a payment and returns the row Prisma reads back (%s)', async (_way, run) => {
  const taskId = await newTask();
  const createdAt = new Date('2026-11-26T10:00:00.123Z');
  const returned = await run((db) =>
    insertPayment(db, { id: newId('pay'), taskId, method: 'card', status: 'pending', amountCents: 250, payeeId: userId, createdAt, autoCharged: true, provider: 'simulated' }),
  );
  const read = await prisma.payment.findUniqueOrThrow({ where: { taskId } });
  expect(returned).toEqual(read);
  expect(read).toMatchObject({ method: 'card', status: 'pending', amountCents: 250, feeCents: 0, autoCharged: true, provider: 'simulated', heldAt: null, createdAt });
  expect(read.updatedAt).toBeInstanceOf(Date);
});

each('adds the job a payment causes in the same statement, and returns the row alone (%s)', async (_way, run) => {
  const other = await newTask();
  const runAt = new Date(Date.now() + 600_000);
  const returned = await run((db) =>
    insertPayment(db, { id: newId('pay'), taskId: other, method: 'card', status: 'pending', amountCents: 250, payeeId: userId, createdAt: new Date() }, jobCall(authorizePayment, { taskId: other }, { runAt })),
  );
  expect(returned).toEqual(await prisma.payment.findUniqueOrThrow({ where: { taskId: other } }));
  const jobs = await prisma.$queryRaw<Array<{ task_identifier: string; run_at: Date }>>`SELECT task_identifier, run_at FROM graphile_worker.jobs WHERE key = ${`payment.authorize:${other}`}`;
  expect(jobs).toEqual([{ task_identifier: 'payment.authorize', run_at: runAt }]);
});

each('takes a credit only while the balance has one, and gives it back once (%s)', async (_way, run) => {
  const agentId = (await prisma.agent.create({ data: { id: newId('agt'), ownerId: userId, name: 'A', slug: newId('s'), endpoint: 'https://example.com/x' } })).id;
  const taskId = await newTask();
  await prisma.creditBalance.create({ data: { userId, agentId, balance: 1 } });
  const now = new Date('2026-11-28T02:00:00.000Z');
  const use = () => run((db) => takeCredit(db, { userId, agentId, taskId, entryId: newId('cle'), now }));
  expect(await use()).toBe(true);
  expect(await use()).toBe(false);
  expect(await prisma.creditBalance.findUniqueOrThrow({ where: { userId_agentId: { userId, agentId } } })).toMatchObject({ balance: 0, updatedAt: now });
  expect(await prisma.creditLedgerEntry.findMany({ where: { taskId }, omit: { id: true } })).toEqual([{ userId, agentId, kind: 'use', delta: -1, taskId, intentId: null, amountCents: null, createdAt: now }]);
  await run((db) => giveCreditBack(db, taskId, newId('cle'), now));
  expect((await prisma.creditBalance.findUniqueOrThrow({ where: { userId_agentId: { userId, agentId } } })).balance).toBe(1);
  expect(await prisma.creditLedgerEntry.count({ where: { taskId, kind: 'refund', delta: 1 } })).toBe(1);
  // A task that used no credit gets none back.
  const other = await newTask();
  await run((db) => giveCreditBack(db, other, newId('cle'), now));
  expect(await prisma.creditLedgerEntry.count({ where: { taskId: other } })).toBe(0);
});

each('records an attempt and releases the delivery, and throws for a delivery that is gone (%s)', async (_way, run) => {
  const agentId = (await prisma.agent.findFirstOrThrow({ where: { ownerId: userId } })).id;
  const taskId = await newTask();
  const deliveryId = newId('dlv');
  await prisma.delivery.create({ data: { id: deliveryId, taskId, agentId, attemptJobId: 'job-1', attemptStartedAt: new Date() } });
  const at = new Date('2026-11-26T10:00:01.456Z');
  const retryAt = new Date('2026-11-26T10:05:00.000Z');
  const attempt = (number: number) => ({ id: newId('att'), deliveryId, number, statusCode: 503, latencyMs: 12, error: 'HTTP 503', at });
  await run((db) => recordAttempt(db, attempt(1), { status: null, nextAttemptAt: retryAt }, jobCall(deliverTask, { deliveryId }, { runAt: retryAt })));
  expect(await prisma.deliveryAttempt.findMany({ where: { deliveryId }, omit: { id: true } })).toEqual([{ deliveryId, number: 1, statusCode: 503, latencyMs: 12, error: 'HTTP 503', at }]);
  expect(await prisma.delivery.findUniqueOrThrow({ where: { id: deliveryId } })).toMatchObject({ status: 'pending', nextAttemptAt: retryAt, attemptJobId: null, attemptStartedAt: null, updatedAt: at });
  const retries = await prisma.$queryRaw<Array<{ run_at: Date }>>`SELECT run_at FROM graphile_worker.jobs WHERE key = ${`task.deliver:${deliveryId}`}`;
  expect(retries).toEqual([{ run_at: retryAt }]);
  await run((db) => recordAttempt(db, { ...attempt(2), statusCode: 200, error: null }, { status: 'succeeded', nextAttemptAt: null }));
  expect(await prisma.delivery.findUniqueOrThrow({ where: { id: deliveryId } })).toMatchObject({ status: 'succeeded', nextAttemptAt: null });
  expect(await prisma.deliveryAttempt.count({ where: { deliveryId } })).toBe(2);
  // Gone: nothing of the attempt stays either.
  await expect(run((db) => recordAttempt(db, { ...attempt(1), deliveryId: 'dlv_missing' }, { status: 'failed', nextAttemptAt: null }))).rejects.toThrow();
  expect(await prisma.deliveryAttempt.count({ where: { deliveryId: 'dlv_missing' } })).toBe(0);
});

it('reads an API key with its user as Prisma would, and nothing for a revoked or unknown key', async () => {
  const sql = createKysely(db.url, 1);
  const { user, apiKey } = await createUserWithKey(sql, { email: `${newId('e')}@example.com`, name: 'Key Holder' });
  await prisma.user.update({ where: { id: user.id }, data: { defaultPaymentMethodId: 'pm_1', cardBrand: 'visa', cardLast4: '4242', isAdmin: true } });
  const events = { publishRevokedKey: async () => {} };
  const { accounts } = accountServices({ sql, clock: systemClock, events, logger: console, config: { accounts: { sessionIdleMs: 60_000, sessionMaxAgeMs: 60_000 } } } as never, null);
  const found = await accounts.userForApiKey(apiKey);
  expect(found?.user).toEqual(await prisma.user.findUniqueOrThrow({ where: { id: user.id } }));
  expect(found?.apiKeyId).toBe((await prisma.apiKey.findFirstOrThrow({ where: { userId: user.id } })).id);
  expect(await accounts.userForApiKey(`${apiKey}x`)).toBeNull();
  await accounts.revokeApiKey(user.id, found!.apiKeyId);
  expect(await accounts.userForApiKey(apiKey)).toBeNull();
  await sql.destroy();
});

each('reads a session and an app access token with their user as Prisma would (%s)', async (_way, run) => {
  const holder = await prisma.user.create({
    data: { id: newId('usr'), email: `${newId('e')}@example.com`, name: 'Holder', isAdmin: true, cardBrand: 'visa', cardLast4: '4242', emailVerifiedAt: new Date('2026-11-26T10:00:00.001Z'), notificationUrl: 'https://example.com/n' },
  });
  const expiresAt = new Date(Date.now() + 3_600_000);
  const sessionHash = newId('hash');
  await run((t) => insertSession(t, { id: newId('ses'), userId: holder.id, hash: sessionHash, method: 'passkey', userAgent: null, createdAt: new Date(), lastSeenAt: new Date(), expiresAt }));
  const session = await run((t) => sessionWithUser(t, sessionHash));
  expect(session?.user).toEqual(holder);
  expect(session?.session).toEqual(await prisma.session.findUniqueOrThrow({ where: { hash: sessionHash } }));

  const client = await run((t) => insertClient(t, { id: newId('app'), name: 'App', redirectUris: ['https://app.example/cb'], clientUri: null }));
  const grant = await run((t) => insertGrant(t, { id: newId('grt'), clientId: client.id, userId: holder.id, scopes: ['tasks:read'], resource: 'https://api.example' }));
  const tokenHash = newId('hash');
  await run((t) => insertTokens(t, [{ hash: tokenHash, grantId: grant.id, kind: 'access', expiresAt }]));
  const bearer = await run((t) => accessTokenWithUser(t, tokenHash));
  expect(bearer?.user).toEqual(holder);
  expect(bearer?.grant).toEqual(await prisma.oAuthGrant.findUniqueOrThrow({ where: { id: grant.id } }));
  expect(bearer?.expiresAt).toEqual(expiresAt);
  expect(await run((t) => sessionWithUser(t, `${sessionHash}x`))).toBeUndefined();
  expect(await run((t) => accessTokenWithUser(t, `${tokenHash}x`))).toBeUndefined();
});

each('reads a task with its payment, or with none, as Prisma would (%s)', async (_way, run) => {
  const paid = await newTask();
  await prisma.payment.create({ data: { id: newId('pay'), taskId: paid, method: 'card', status: 'pending', amountCents: 250, payeeId: userId, heldAt: new Date('2026-11-26T10:00:00.001Z') } });
  const bare = (await prisma.task.create({ data: { id: newId('tsk'), requesterId: userId, title: 't', description: 'd', input: { a: [1] }, capabilities: ['x'], expiresAt: new Date(Date.now() + 3_600_000) } })).id;
  for (const id of [paid, bare]) {
    expect(await run((db) => taskWithPayment(db, id))).toEqual(await prisma.task.findUniqueOrThrow({ where: { id }, include: { payment: true } }));
  }
  expect((await run((db) => taskWithPayment(db, paid)))?.payment?.status).toBe('pending');
  expect((await run((db) => taskWithPayment(db, bare)))?.payment).toBeNull();
  expect(await run((db) => taskWithPayment(db, 'tsk_missing'))).toBeNull();
  // The callback's read: its columns of the task, and the whole payment.
  const select = { id: true, status: true, startedAt: true, agentId: true, tokenHash: true, tokenNonce: true, reviewWindowSeconds: true, inputRounds: true, payment: true } as const;
  for (const id of [paid, bare]) expect(await run((db) => callbackTask(db, id))).toEqual(await prisma.task.findUniqueOrThrow({ where: { id }, select }));
  expect(await run((db) => callbackTask(db, 'tsk_missing'))).toBeNull();
});

each('inserts a task with its agent counted and its expiry job in one statement, as Prisma would write it (%s)', async (_way, run) => {
  const agent = await prisma.agent.findFirstOrThrow({ where: { ownerId: userId } });
  const id = newId('tsk');
  const key = newId('key');
  const expiresAt = new Date('2026-11-27T12:00:00.000Z');
  const now = new Date('2026-11-27T10:00:00.500Z');
  const returned = await run((db) =>
    insertTask(
      db,
      {
        id,
        requesterId: userId,
        agentId: agent.id,
        title: 'Translate',
        description: 'into French',
        input: json({ text: 'hello', n: [1, 2] }),
        inputHash: 'abc',
        capabilities: ['translation', 'french'],
        protocols: [],
        priority: 'high',
        maxPriceCents: null,
        requirements: null,
        routingExplanation: json({ score: 0.5, terms: [] }),
        reviewWindowSeconds: 60,
        createdAt: now,
        expiresAt,
        idempotencyKey: key,
      },
      { now, job: jobCall(expireTask, { taskId: id }, { runAt: expiresAt }) },
    ),
  );
  const read = await prisma.task.findUniqueOrThrow({ where: { id } });
  expect(returned).toEqual(read);
  expect(read).toMatchObject({ status: 'pending', priority: 'high', capabilities: ['translation', 'french'], protocols: [], requirements: null, inputRounds: 0, result: null });
  // The agent's row is left alone (its figures are the agent.figures job's).
  expect(await prisma.agent.findUniqueOrThrow({ where: { id: agent.id } })).toEqual(agent);
  const jobs = await prisma.$queryRaw<Array<{ run_at: Date }>>`SELECT run_at FROM graphile_worker.jobs WHERE key = ${`task.expire:${id}`}`;
  expect(jobs).toEqual([{ run_at: expiresAt }]);
  // The same idempotency key again: the unique index refuses it as the model call's would be refused.
  const again = run((db) =>
    insertTask(db, { id: newId('tsk'), requesterId: userId, title: 't', description: 'd', expiresAt, idempotencyKey: key }, { now, job: jobCall(expireTask, { taskId: 'x' }) }),
  );
  await expect(again).rejects.toSatisfy(isUniqueViolation);
});

each('moves a task only from the state given, with its history, its delivery and jobs, and the expiry removal (%s)', async (_way, run) => {
  const agent = await prisma.agent.findFirstOrThrow({ where: { ownerId: userId } });
  const id = newId('tsk');
  await prisma.task.create({ data: { id, requesterId: userId, agentId: agent.id, title: 't', description: 'd', expiresAt: new Date(Date.now() + 3_600_000) } });
  await prisma.$executeRaw`SELECT graphile_worker.add_job('task.expire', json_build_object('taskId', ${id}::text), job_key => ${jobKey(expireTask, { taskId: id })})`;
  const now = new Date('2026-11-28T01:00:00.250Z');
  const deliveryId = newId('dlv');
  const history = { id: newId('evt'), actor: 'system', actorId: null, note: 'n', data: { round: 1 } };
  const match = (from: 'pending' | 'matched') => ({
    taskId: id, action: 'match', from, to: 'matched' as const, now, changes: { matchedAt: now, tokenHash: 'h' },
    history: { ...history, id: newId('evt') }, notify: null, removeJobKey: null, deliveryId, jobs: [jobCall(deliverTask, { deliveryId })],
  });
  // From a state the task is not in: nothing at all is written.
  expect(await run((db) => applyMove(db, match('matched')))).toBeNull();
  expect(await prisma.taskHistoryEntry.count({ where: { taskId: id } })).toBe(0);
  expect(await prisma.delivery.count({ where: { taskId: id } })).toBe(0);
  const moved = await run((db) => applyMove(db, match('pending')));
  expect(moved).toEqual({ task: await prisma.task.findUniqueOrThrow({ where: { id } }), payment: null });
  expect(moved!.task).toMatchObject({ status: 'matched', matchedAt: now, updatedAt: now, tokenHash: 'h' });
  expect(await prisma.taskHistoryEntry.findMany({ where: { taskId: id }, omit: { id: true } })).toEqual([
    { taskId: id, at: now, actor: 'system', actorId: null, action: 'match', fromStatus: 'pending', toStatus: 'matched', note: 'n', data: { round: 1 } },
  ]);
  expect(await prisma.delivery.findUniqueOrThrow({ where: { id: deliveryId } })).toMatchObject({ taskId: id, agentId: agent.id, status: 'pending', createdAt: now });
  const jobs = async (key: string) => (await prisma.$queryRaw<Array<{ n: number }>>`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE key = ${key}`)[0]!.n;
  expect(await jobs(`task.deliver:${deliveryId}`)).toBe(1);
  expect(await jobs(jobKey(expireTask, { taskId: id }))).toBe(1);
  // A guard the row does not meet stops the move and the payment's move with it; a final move removes the
  // expiry job.
  const paymentId = newId('pay');
  await prisma.payment.create({ data: { id: paymentId, taskId: id, method: 'free', status: 'authorized', amountCents: 0 } });
  const cancel = (guard: { inputRounds: number }) => ({
    taskId: id, action: 'cancel', from: 'matched' as const, to: 'cancelled' as const, now, changes: { finishedAt: now, error: 'e', result: json([1, 'two']) },
    guard, history: { ...history, id: newId('evt') }, notify: null, removeJobKey: jobKey(expireTask, { taskId: id }),
    paymentMove: { id: paymentId, from: ['authorized'] as const, to: 'released' as const, changes: { settledAt: now } },
  });
  expect(await run((db) => applyMove(db, cancel({ inputRounds: 3 })))).toBeNull();
  expect(await jobs(jobKey(expireTask, { taskId: id }))).toBe(1);
  expect(await prisma.payment.findUniqueOrThrow({ where: { id: paymentId } })).toMatchObject({ status: 'authorized', settledAt: null });
  const cancelled = await run((db) => applyMove(db, cancel({ inputRounds: 0 })));
  expect(cancelled).toEqual({ task: await prisma.task.findUniqueOrThrow({ where: { id } }), payment: await prisma.payment.findUniqueOrThrow({ where: { id: paymentId } }) });
  expect(cancelled!.task).toMatchObject({ status: 'cancelled', result: [1, 'two'], error: 'e' });
  expect(cancelled!.payment).toMatchObject({ status: 'released', settledAt: now, updatedAt: now });
  expect(await jobs(jobKey(expireTask, { taskId: id }))).toBe(0);
  expect(await prisma.taskHistoryEntry.count({ where: { taskId: id } })).toBe(2);
});

each('gives a waiting task its agent and counts it, once (%s)', async (_way, run) => {
  const agent = await prisma.agent.findFirstOrThrow({ where: { ownerId: userId } });
  const id = await newTask();
  const now = new Date('2026-11-28T03:00:00.000Z');
  const assign = () => run((db) => assignAgent(db, id, agent.id, json({ score: 1 }), now));
  expect(await assign()).toBe(true);
  expect(await assign()).toBe(false);
  expect(await prisma.task.findUniqueOrThrow({ where: { id } })).toMatchObject({ agentId: agent.id, routing: { score: 1 }, updatedAt: now });
  // The agent's row is left alone (its figures are the agent.figures job's).
  expect(await prisma.agent.findUniqueOrThrow({ where: { id: agent.id } })).toEqual(agent);
});
