// The deliveries and delivery_attempts tables' SQL: the claim of an attempt, its record with the
// delivery's release (and the retry's job), and the delivery's other small moves. Rules:
// services/deliveries.ts.
import { sql, type Insertable, type RawBuilder } from 'kysely';
import type { SqlDb } from '../db/kysely.js';
import type { DeliveryAttempt } from '../generated/kysely/types.js';
import type { JsonSql } from './json.js';

export type AttemptRecord = Insertable<DeliveryAttempt> & { at: Date };

// What the attempt leaves the delivery with: `status` null keeps it pending (a retry at nextAttemptAt).
export interface DeliveryRelease {
  status: 'succeeded' | 'failed' | null;
  nextAttemptAt: Date | null;
}

/**
 * Claims the next attempt number for `jobId` in one conditional update, so two jobs never send the same
 * delivery at once nor record the same attempt number. Null: another job holds the claim (one that has
 * held it longer than `claimMs` is taken over: its holder vanished).
 */
export async function claimAttempt(db: SqlDb, deliveryId: string, jobId: string, claimMs: number, now: Date): Promise<number | null> {
  const row = await db
    .updateTable('deliveries')
    .set((eb) => ({ attemptCount: eb('attemptCount', '+', 1), attemptJobId: jobId, attemptStartedAt: now, updatedAt: now }))
    .where('id', '=', deliveryId)
    .where('status', '=', 'pending')
    .where((eb) =>
      eb.or([eb('attemptJobId', 'is', null), eb('attemptJobId', '=', jobId), eb('attemptStartedAt', '<', new Date(now.getTime() - claimMs))]),
    )
    .returning('attemptCount')
    .executeTakeFirst();
  return row?.attemptCount ?? null;
}

/**
 * Records the attempt and ends its claim on the delivery, with the retry's job when there is one: one
 * statement. A delivery that is gone (its task deleted meanwhile) throws, so the transaction does not
 * commit half of it (the insert's foreign key fails first in that case).
 */
export async function recordAttempt(db: SqlDb, a: AttemptRecord, release: DeliveryRelease, retryJob?: RawBuilder<unknown>): Promise<void> {
  const row = await db
    .with('attempt', (q) => q.insertInto('deliveryAttempts').values(a))
    .with('d', (q) =>
      q
        .updateTable('deliveries')
        .set({
          attemptJobId: null,
          attemptStartedAt: null,
          nextAttemptAt: release.nextAttemptAt,
          ...(release.status ? { status: release.status } : {}),
          updatedAt: a.at,
        })
        .where('id', '=', a.deliveryId)
        .returning('id'),
    )
    .selectFrom('d')
    .select(retryJob ? sql<string>`(${retryJob}).id::text`.as('job') : 'd.id')
    .executeTakeFirst();
  if (!row) throw new Error(`delivery ${a.deliveryId} is gone`);
}

// A delivery whose task no longer waits for it: it ends failed.
export async function dropDelivery(db: SqlDb, deliveryId: string): Promise<void> {
  await db.updateTable('deliveries').set({ status: 'failed', nextAttemptAt: null }).where('id', '=', deliveryId).where('status', '=', 'pending').execute();
}

// The endpoint is disabled: the delivery waits, without a time, until its owner enables it again.
export async function parkDelivery(db: SqlDb, deliveryId: string): Promise<void> {
  await db.updateTable('deliveries').set({ nextAttemptAt: null }).where('id', '=', deliveryId).where('status', '=', 'pending').execute();
}

export interface NewDelivery {
  id: string;
  taskId: string;
  agentId: string;
  // 'task.assigned' when absent (the column's default).
  type?: string;
  payload?: JsonSql;
  now: Date;
}

// A delivery and the job that sends it, in one statement.
export async function insertDelivery(db: SqlDb, d: NewDelivery, job: RawBuilder<unknown>): Promise<void> {
  const { now, ...values } = d;
  await db
    .with('d', (q) => q.insertInto('deliveries').values({ ...values, createdAt: now, updatedAt: now }).returning('id'))
    .selectFrom('d')
    .select(sql<string>`(${job}).id::text`.as('job'))
    .executeTakeFirstOrThrow();
}

// Whether the task has an A2A link (the agent told us which of its tasks is ours).
export async function hasA2ALink(db: SqlDb, taskId: string): Promise<boolean> {
  return (await db.selectFrom('a2aTaskLinks').select('taskId').where('taskId', '=', taskId).executeTakeFirst()) !== undefined;
}

// The task's deliveries of one type (pending ones only, when asked).
export async function deliveriesOfType(db: SqlDb, taskId: string, type: string, pendingOnly = false): Promise<number> {
  const row = await db
    .selectFrom('deliveries')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('taskId', '=', taskId)
    .where('type', '=', type)
    .$if(pendingOnly, (q) => q.where('status', '=', 'pending'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

// A delivery that never made an attempt is removed (it leaves nothing in the log).
export async function removeUnattempted(db: SqlDb, deliveryId: string): Promise<void> {
  await db.deleteFrom('deliveries').where('id', '=', deliveryId).where('status', '=', 'pending').where('attemptCount', '=', 0).execute();
}

// The agent's deliveries not yet succeeded, of tasks that still wait for them (the task itself while it is
// matched, an answer to an input request while the agent works: as services/deliveries.ts decides), with a
// failed attempt in [since, until). Ids in order.
export async function failedInWindow(db: SqlDb, agentId: string, since: Date, until: Date): Promise<string[]> {
  const rows = await db
    .selectFrom('deliveries as d')
    .innerJoin('tasks as t', 't.id', 'd.taskId')
    .select('d.id')
    .where('d.agentId', '=', agentId)
    .where('d.status', '<>', 'succeeded')
    .where((eb) =>
      eb.or([
        eb.and([eb('d.type', '=', 'task.input'), eb('t.status', '=', 'in_progress')]),
        eb.and([eb('d.type', '<>', 'task.input'), eb('t.status', '=', 'matched')]),
      ]),
    )
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('deliveryAttempts as a')
          .select('a.id')
          .whereRef('a.deliveryId', '=', 'd.id')
          .where('a.at', '>=', since)
          .where('a.at', '<', until)
          .where('a.error', 'is not', null),
      ),
    )
    .orderBy('d.id', 'asc')
    .execute();
  return rows.map((r) => r.id);
}

// Deliveries sent again now (pending, due now).
export async function reopenDeliveries(db: SqlDb, ids: readonly string[], now: Date): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('deliveries').set({ status: 'pending', nextAttemptAt: now, updatedAt: now }).where('id', 'in', ids).execute();
}
