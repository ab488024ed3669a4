// The notifications table's SQL: the insert on the task path (an operational event for an agent's owner,
// written in the transaction of what caused it, with the job that POSTs it when it can be sent), and the
// attempts' records. Rules: services/notifications.ts.
import { sql, type RawBuilder } from 'kysely';
import type { SqlDb } from '../db/kysely.js';
import type { JsonSql } from './json.js';

export interface NewNotification {
  id: string;
  userId: string;
  agentId: string;
  type: string;
  data: JsonSql;
  now: Date;
  // Without a URL to send it to, it is recorded as failed with the reason.
  unsendable?: { lastError: string };
}

export async function insertNotification(db: SqlDb, n: NewNotification, job: RawBuilder<unknown> | null): Promise<void> {
  const { now, unsendable, ...values } = n;
  const row = { ...values, ...(unsendable ? { status: 'failed' as const, lastError: unsendable.lastError } : {}), createdAt: now, updatedAt: now };
  if (!job) {
    await db.insertInto('notifications').values(row).execute();
    return;
  }
  await db
    .with('n', (q) => q.insertInto('notifications').values(row).returning('id'))
    .selectFrom('n')
    .select(sql<string>`(${job}).id::text`.as('job'))
    .executeTakeFirstOrThrow();
}

// A notification with where its owner wants it sent; undefined when there is none.
export async function notificationToSend(db: SqlDb, id: string) {
  return db
    .selectFrom('notifications as n')
    .innerJoin('users as u', 'u.id', 'n.userId')
    .select(['n.id', 'n.status', 'n.type', 'n.data', 'n.attemptCount', 'u.notificationUrl', 'u.notificationSecretEnc'])
    .where('n.id', '=', id)
    .executeTakeFirst();
}

// The attempt's outcome: succeeded or failed for good (no next attempt).
export async function finishNotification(
  db: SqlDb,
  id: string,
  end: { status: 'succeeded' | 'failed'; attemptCount?: number; lastError: string | null },
  now: Date,
): Promise<void> {
  await db.updateTable('notifications').set({ ...end, nextAttemptAt: null, updatedAt: now }).where('id', '=', id).execute();
}

// A failed attempt with a retry at `nextAt`: the record and the retry's job in one statement.
export async function retryNotification(db: SqlDb, r: { id: string; attemptCount: number; lastError: string; nextAt: Date; now: Date }, job: RawBuilder<unknown>): Promise<void> {
  await db
    .with('n', (q) =>
      q
        .updateTable('notifications')
        .set({ attemptCount: r.attemptCount, lastError: r.lastError, nextAttemptAt: r.nextAt, updatedAt: r.now })
        .where('id', '=', r.id)
        .returning('id'),
    )
    .selectFrom('n')
    .select(sql<string>`(${job}).id::text`.as('job'))
    .execute();
}
