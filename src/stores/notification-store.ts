// The notifications table's insert on the task path: an operational event for an agent's owner, written
// in the transaction of what caused it, with the job that POSTs it when it can be sent.
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
