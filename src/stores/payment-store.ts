// The payments table's SQL: the insert every matched task makes, the conditional status moves (each with
// its step's time), the capture decision with its job, and the payout read. Rules: services/payments/.
import { sql, type Insertable, type RawBuilder, type Selectable, type Updateable } from 'kysely';
import type { SqlDb } from '../db/kysely.js';
import type { Payment as PaymentTable } from '../generated/kysely/types.js';
import type { Payment, PaymentStatus } from '../generated/prisma/client.js';

// The tables' Payment and Prisma's agree field by field (checked by the compiler here).
export const paymentOf = (row: Selectable<PaymentTable>): Payment => row;

// A payment nested in another row as JSON (jsonObjectFrom): its keys are the columns' snake_case names
// (the CamelCasePlugin leaves JSON alone) and its times arrive as text; both are turned back. Every read of
// a task with its payment does this, so each key's camelCase name is worked out once, and the times are
// parsed without a schema's machinery (an absent or unreadable time still throws).
const camelKeys = new Map<string, string>();
const camelKey = (key: string) => {
  let camel = camelKeys.get(key);
  if (camel === undefined) camelKeys.set(key, (camel = key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())));
  return camel;
};
const STAMPS = { heldAt: true, settledAt: true, transferredAt: true, createdAt: false, updatedAt: false } as const;
type Stamp = keyof typeof STAMPS;

function stampOf(row: Record<string, unknown>, key: Stamp): Date | null {
  const value = row[key];
  if (value === null && STAMPS[key]) return null;
  const at = typeof value === 'string' || typeof value === 'number' || value instanceof Date ? new Date(value) : null;
  if (!at || Number.isNaN(at.getTime())) throw new Error(`the payment's ${key} is not a time: ${String(value)}`);
  return at;
}

export function paymentFromJson(nested: object): Payment {
  const row: Record<string, unknown> = {};
  for (const key in nested) row[camelKey(key)] = (nested as Record<string, unknown>)[key];
  const stamps = {
    heldAt: stampOf(row, 'heldAt'),
    settledAt: stampOf(row, 'settledAt'),
    transferredAt: stampOf(row, 'transferredAt'),
    createdAt: stampOf(row, 'createdAt')!,
    updatedAt: stampOf(row, 'updatedAt')!,
  };
  return { ...(row as Selectable<PaymentTable>), ...stamps };
}

export type NewPayment = Omit<Insertable<PaymentTable>, 'updatedAt' | 'createdAt'> & { createdAt: Date };

// `job`: a job the payment causes (jobCall), added in the same statement.
export async function insertPayment(db: SqlDb, p: NewPayment, job?: RawBuilder<unknown>): Promise<Payment> {
  const values = { ...p, updatedAt: p.createdAt };
  if (!job) return paymentOf(await db.insertInto('payments').values(values).returningAll().executeTakeFirstOrThrow());
  const row = await db
    .with('m', (q) => q.insertInto('payments').values(values).returningAll())
    .selectFrom('m')
    .selectAll('m')
    .select(sql<string>`(${job}).id::text`.as('job'))
    .executeTakeFirstOrThrow();
  const { job: _job, ...payment } = row;
  return paymentOf(payment);
}

export type PaymentChanges = Omit<Updateable<PaymentTable>, 'id' | 'taskId' | 'status' | 'updatedAt'>;

// A payment's conditional status move: from any of `from` to `to`, with what it writes besides.
export interface PaymentMove {
  id: string;
  from: readonly PaymentStatus[];
  to: PaymentStatus;
  changes?: PaymentChanges;
}

// A new task's payment written in the task's own statement (task-store.ts applyMove): the columns a payment
// that needs nothing from a processor has.
export type NewTaskPayment = Pick<NewPayment, 'id' | 'method' | 'status' | 'amountCents' | 'payeeId' | 'createdAt'>;

// One conditional move from any of `from` to `to`; false when the payment is elsewhere. `job`: a job the
// move causes, added only when it applies (same statement).
export async function movePayment(db: SqlDb, m: PaymentMove & { now: Date; job?: RawBuilder<unknown> }): Promise<boolean> {
  const update = db
    .updateTable('payments')
    .set({ ...m.changes, status: m.to, updatedAt: m.now })
    .where('id', '=', m.id)
    .where('status', 'in', m.from);
  if (!m.job) return (await update.executeTakeFirst()).numUpdatedRows === 1n;
  const job = m.job;
  const row = await db
    .with('m', () => update.returning('id'))
    .selectFrom('m')
    .select(sql<string>`(${job}).id::text`.as('job'))
    .executeTakeFirst();
  return row !== undefined;
}

export async function paymentOfTask(db: SqlDb, taskId: string): Promise<Payment | null> {
  const row = await db.selectFrom('payments').selectAll().where('taskId', '=', taskId).executeTakeFirst();
  return row ? paymentOf(row) : null;
}

export async function paymentById(db: SqlDb, id: string): Promise<Payment | null> {
  const row = await db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? paymentOf(row) : null;
}

export async function paymentOfIntent(db: SqlDb, intentId: string): Promise<Payment | null> {
  const row = await db.selectFrom('payments').selectAll().where('intentId', '=', intentId).executeTakeFirst();
  return row ? paymentOf(row) : null;
}

// The payment with what paying out needs: the payee's connected account (one statement).
export async function payoutOf(db: SqlDb, taskId: string): Promise<(Payment & { connectAccountId: string | null }) | null> {
  const row = await db
    .selectFrom('payments as p')
    .leftJoin('users as u', 'u.id', 'p.payeeId')
    .selectAll('p')
    .select('u.connectAccountId')
    .where('p.taskId', '=', taskId)
    .executeTakeFirst();
  return row ? { ...paymentOf(row), connectAccountId: row.connectAccountId } : null;
}

// The transfer id, once per payment.
export async function recordTransfer(db: SqlDb, id: string, transferId: string, now: Date): Promise<void> {
  await db.updateTable('payments').set({ transferId, transferredAt: now, updatedAt: now }).where('id', '=', id).where('transferId', 'is', null).execute();
}

// The processor's receipt page of a captured charge.
export async function recordReceipt(db: SqlDb, id: string, receiptUrl: string, now: Date): Promise<void> {
  await db.updateTable('payments').set({ receiptUrl, updatedAt: now }).where('id', '=', id).execute();
}

// The intent of a hold placed after its task ended, kept for its release.
export async function recordLateIntent(db: SqlDb, id: string, intentId: string, now: Date): Promise<void> {
  await db.updateTable('payments').set({ intentId, updatedAt: now }).where('id', '=', id).where('intentId', 'is', null).execute();
}

export async function recordFailure(db: SqlDb, id: string, failureMessage: string, now: Date): Promise<void> {
  await db.updateTable('payments').set({ failureMessage, updatedAt: now }).where('id', '=', id).execute();
}

// Captured shares of a payee not yet transferred.
export async function owedTransfers(db: SqlDb, payeeId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('payments')
    .select('taskId')
    .where('payeeId', '=', payeeId)
    .where('method', '=', 'card')
    .where('status', '=', 'captured')
    .where('transferId', 'is', null)
    .where('failureMessage', 'is', null)
    .execute();
  return rows.map((r) => r.taskId);
}

// The payment with its task's requester (who may confirm its hold).
export async function paymentWithRequester(db: SqlDb, by: { taskId: string } | { intentId: string }): Promise<(Payment & { task: { requesterId: string } }) | null> {
  const row = await db
    .selectFrom('payments as p')
    .innerJoin('tasks as t', 't.id', 'p.taskId')
    .selectAll('p')
    .select('t.requesterId')
    .$if('taskId' in by, (q) => q.where('p.taskId', '=', (by as { taskId: string }).taskId))
    .$if('intentId' in by, (q) => q.where('p.intentId', '=', (by as { intentId: string }).intentId))
    .executeTakeFirst();
  if (!row) return null;
  const { requesterId, ...payment } = row;
  return { ...paymentOf(payment), task: { requesterId } };
}

// A processor event's id, recorded once: false when it was already (a concurrent delivery of the same
// event waits on the insert, so one of them handles it).
export async function recordWebhookEvent(db: SqlDb, id: string, type: string): Promise<boolean> {
  const rows = await db.insertInto('processedWebhookEvents').values({ id, type }).onConflict((oc) => oc.column('id').doNothing()).returning('id').execute();
  return rows.length === 1;
}

// What the payee is owed from captured shares not yet transferred, in cents.
export async function owedCents(db: SqlDb, payeeId: string): Promise<number> {
  const row = await db
    .selectFrom('payments')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<string>(eb('amountCents', '-', eb.ref('feeCents'))), sql<string>`0`).as('owed'))
    .where('payeeId', '=', payeeId)
    .where('method', '=', 'card')
    .where('status', '=', 'captured')
    .where('transferId', 'is', null)
    .where('failureMessage', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.owed);
}
