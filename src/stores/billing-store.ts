// What the billing pages read: a requester's payments and spending, an owner's earnings and their
// transfers, and the card on file. Rules: services/billing.ts.
import { sql } from 'kysely';
import type { SqlDb } from '../db/kysely.js';
import type { PaymentMethod, PaymentStatus } from '../generated/prisma/client.js';

export interface PaymentHistoryRow {
  taskId: string;
  taskTitle: string;
  agentName: string | null;
  agentSlug: string | null;
  method: PaymentMethod;
  status: PaymentStatus;
  amountCents: number;
  cardBrand: string | null;
  cardLast4: string | null;
  heldAt: Date | null;
  settledAt: Date | null;
  receiptUrl: string | null;
  createdAt: Date;
}

// The requester's paid tasks (free ones cost nothing and are left out), newest first.
export async function paymentHistory(db: SqlDb, requesterId: string, limit: number): Promise<PaymentHistoryRow[]> {
  return db
    .selectFrom('payments as p')
    .innerJoin('tasks as t', 't.id', 'p.taskId')
    .leftJoin('agents as a', 'a.id', 't.agentId')
    .select([
      'p.taskId',
      't.title as taskTitle',
      'a.name as agentName',
      'a.slug as agentSlug',
      'p.method',
      'p.status',
      'p.amountCents',
      'p.cardBrand',
      'p.cardLast4',
      'p.heldAt',
      'p.settledAt',
      'p.receiptUrl',
      'p.createdAt',
    ])
    .where('t.requesterId', '=', requesterId)
    .where('p.method', '!=', 'free')
    .orderBy('p.createdAt', 'desc')
    .orderBy('p.id', 'desc')
    .limit(limit)
    .execute();
}

// Money the requester was charged since `since`: captured card holds and credit purchases.
export async function spentSince(db: SqlDb, requesterId: string, since: Date): Promise<number> {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('payments as p')
        .innerJoin('tasks as t', 't.id', 'p.taskId')
        .select(sql<string>`coalesce(sum(p.amount_cents), 0)::text`.as('cents'))
        .where('t.requesterId', '=', requesterId)
        .where('p.method', '=', 'card')
        .where('p.status', '=', 'captured')
        .where('p.settledAt', '>=', since)
        .as('tasks'),
      eb
        .selectFrom('creditLedger')
        .select(sql<string>`coalesce(sum(amount_cents), 0)::text`.as('cents'))
        .where('userId', '=', requesterId)
        .where('kind', '=', 'purchase')
        .where('createdAt', '>=', since)
        .as('credits'),
    ])
    .executeTakeFirstOrThrow();
  return Number(row.tasks ?? 0) + Number(row.credits ?? 0);
}

export interface EarningRow {
  taskId: string;
  taskTitle: string;
  agentName: string | null;
  amountCents: number;
  feeCents: number;
  settledAt: Date | null;
  transferId: string | null;
  transferredAt: Date | null;
  failureMessage: string | null;
}

// The owner's shares of captured card payments (what is paid out), newest first.
export async function earnings(db: SqlDb, payeeId: string, limit: number): Promise<EarningRow[]> {
  return db
    .selectFrom('payments as p')
    .innerJoin('tasks as t', 't.id', 'p.taskId')
    .leftJoin('agents as a', 'a.id', 't.agentId')
    .select(['p.taskId', 't.title as taskTitle', 'a.name as agentName', 'p.amountCents', 'p.feeCents', 'p.settledAt', 'p.transferId', 'p.transferredAt', 'p.failureMessage'])
    .where('p.payeeId', '=', payeeId)
    .where('p.method', '=', 'card')
    .where('p.status', '=', 'captured')
    .orderBy('p.settledAt', 'desc')
    .orderBy('p.id', 'desc')
    .limit(limit)
    .execute();
}

// Totals over every captured share of the owner: owed (not transferred yet) and transferred. A share
// whose capture failed is neither: no money came in for it.
export async function earningTotals(db: SqlDb, payeeId: string): Promise<{ owedCents: number; transferredCents: number }> {
  const row = await db
    .selectFrom('payments')
    .select([
      sql<string>`coalesce(sum(amount_cents - fee_cents) filter (where transfer_id is null), 0)::text`.as('owed'),
      sql<string>`coalesce(sum(amount_cents - fee_cents) filter (where transfer_id is not null), 0)::text`.as('transferred'),
    ])
    .where('payeeId', '=', payeeId)
    .where('method', '=', 'card')
    .where('status', '=', 'captured')
    .where('failureMessage', 'is', null)
    .executeTakeFirstOrThrow();
  return { owedCents: Number(row.owed), transferredCents: Number(row.transferred) };
}

// The saved card: its processor id, and for display its brand and last four only.
export async function recordCardOnFile(db: SqlDb, userId: string, card: { paymentMethodId: string; brand: string | null; last4: string | null }, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({ defaultPaymentMethodId: card.paymentMethodId, cardBrand: card.brand, cardLast4: card.last4, updatedAt: now })
    .where('id', '=', userId)
    .execute();
}

// Forgets the saved card, only if it is still the one removed (a card saved meanwhile stays).
export async function clearCardOnFile(db: SqlDb, userId: string, paymentMethodId: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ defaultPaymentMethodId: null, cardBrand: null, cardLast4: null, updatedAt: now })
    .where('id', '=', userId)
    .where('defaultPaymentMethodId', '=', paymentMethodId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
