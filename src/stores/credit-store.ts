// The credit balances and ledger on the task path: a credit taken at matching and given back when the
// task did not complete, each one statement with its ledger row. A balance changes only by conditional
// or additive SQL (services/credits.ts says why).
import { sql, type Selectable } from 'kysely';
import type { SqlDb } from '../db/kysely.js';
import type { CreditBalance, CreditLedgerEntry } from '../generated/kysely/types.js';

export interface CreditUse {
  userId: string;
  agentId: string;
  taskId: string;
  // The ledger row's id.
  entryId: string;
  now: Date;
}

// One credit for the agent, if the balance has one, and its ledger row ('use'); false when there was none.
export async function takeCredit(db: SqlDb, u: CreditUse): Promise<boolean> {
  const row = await db
    .with('b', (q) =>
      q
        .updateTable('creditBalances')
        .set((eb) => ({ balance: eb('balance', '-', 1), updatedAt: u.now }))
        .where('userId', '=', u.userId)
        .where('agentId', '=', u.agentId)
        .where('balance', '>=', 1)
        .returning(['userId', 'agentId']),
    )
    .with('l', (q) =>
      q
        .insertInto('creditLedger')
        .columns(['id', 'userId', 'agentId', 'kind', 'delta', 'taskId', 'createdAt'])
        .expression((eb) =>
          eb
            .selectFrom('b')
            .select([
              sql<string>`${u.entryId}::text`.as('id'),
              'b.userId',
              'b.agentId',
              sql<'use'>`'use'::"CreditKind"`.as('kind'),
              sql<number>`-1`.as('delta'),
              sql<string>`${u.taskId}::text`.as('taskId'),
              sql<Date>`${u.now}::timestamptz`.as('createdAt'),
            ]),
        ),
    )
    .selectFrom('b')
    .select('b.userId')
    .executeTakeFirst();
  return row !== undefined;
}

// Gives back the credit the task used (found by its 'use' row), with its ledger row ('refund').
export async function giveCreditBack(db: SqlDb, taskId: string, entryId: string, now: Date): Promise<void> {
  await db
    .with('u', (q) => q.selectFrom('creditLedger').select(['userId', 'agentId']).where('taskId', '=', taskId).where('kind', '=', 'use').limit(1))
    .with('b', (q) =>
      q
        .insertInto('creditBalances')
        .columns(['userId', 'agentId', 'balance', 'updatedAt'])
        .expression((eb) => eb.selectFrom('u').select(['u.userId', 'u.agentId', sql<number>`1`.as('balance'), sql<Date>`${now}::timestamptz`.as('updatedAt')]))
        .onConflict((oc) => oc.columns(['userId', 'agentId']).doUpdateSet((eb) => ({ balance: sql<number>`${eb.ref('creditBalances.balance')} + 1`, updatedAt: now })))
        .returning('userId'),
    )
    .insertInto('creditLedger')
    .columns(['id', 'userId', 'agentId', 'kind', 'delta', 'taskId', 'createdAt'])
    .expression((eb) =>
      eb
        .selectFrom('u')
        .select([
          sql<string>`${entryId}::text`.as('id'),
          'u.userId',
          'u.agentId',
          sql<'refund'>`'refund'::"CreditKind"`.as('kind'),
          sql<number>`1`.as('delta'),
          sql<string>`${taskId}::text`.as('taskId'),
          sql<Date>`${now}::timestamptz`.as('createdAt'),
        ]),
    )
    .execute();
}

export interface CreditAddition {
  userId: string;
  agentId: string;
  amount: number;
  // The ledger row's id and kind; a purchase carries its PaymentIntent, unique in the ledger.
  entryId: string;
  kind: 'grant' | 'purchase';
  intentId?: string;
  // What a purchase charged.
  amountCents?: number;
  now: Date;
}

// Credits given or bought: the ledger row, then the balance raised by the amount. Null when the ledger
// already has the purchase's intent (a replayed charge), in which case nothing changes.
export async function addCredits(db: SqlDb, a: CreditAddition): Promise<number | null> {
  const entry = await db
    .insertInto('creditLedger')
    .values({ id: a.entryId, userId: a.userId, agentId: a.agentId, kind: a.kind, delta: a.amount, intentId: a.intentId ?? null, amountCents: a.amountCents ?? null, createdAt: a.now })
    .onConflict((oc) => oc.column('intentId').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!entry) return null;
  const row = await db
    .insertInto('creditBalances')
    .values({ userId: a.userId, agentId: a.agentId, balance: a.amount, updatedAt: a.now })
    .onConflict((oc) => oc.columns(['userId', 'agentId']).doUpdateSet((eb) => ({ balance: sql<number>`${eb.ref('creditBalances.balance')} + ${a.amount}`, updatedAt: a.now })))
    .returning('balance')
    .executeTakeFirstOrThrow();
  return row.balance;
}

// The credits requesters hold for the agent, and how many requesters hold any.
export async function heldCredits(db: SqlDb, agentId: string): Promise<{ credits: number; holders: number }> {
  const row = await db
    .selectFrom('creditBalances')
    .select((eb) => [eb.fn.coalesce(eb.fn.sum<string>('balance'), sql<string>`0`).as('credits'), eb.fn.countAll<string>().as('holders')])
    .where('agentId', '=', agentId)
    .where('balance', '>', 0)
    .executeTakeFirstOrThrow();
  return { credits: Number(row.credits), holders: Number(row.holders) };
}

export async function balanceOf(db: SqlDb, userId: string, agentId: string): Promise<number> {
  const row = await db.selectFrom('creditBalances').select('balance').where('userId', '=', userId).where('agentId', '=', agentId).executeTakeFirst();
  return row?.balance ?? 0;
}

export async function balancesOf(db: SqlDb, userId: string): Promise<Array<Selectable<CreditBalance>>> {
  return db.selectFrom('creditBalances').selectAll().where('userId', '=', userId).orderBy('agentId', 'asc').execute();
}

export async function ledgerOf(db: SqlDb, userId: string, agentId?: string): Promise<Array<Selectable<CreditLedgerEntry>>> {
  return db
    .selectFrom('creditLedger')
    .selectAll()
    .where('userId', '=', userId)
    .$if(agentId !== undefined, (q) => q.where('agentId', '=', agentId!))
    .orderBy('id', 'asc')
    .execute();
}
