// The idempotency_records table: one record per user and Idempotency-Key, claimed by the first request
// and holding its answer once it succeeded. Rules: http/idempotency.ts.
import type { SqlDb } from '../db/kysely.js';
import { json, type JsonValue } from './json.js';

type RecordKey = { userId: string; key: string };

// Records created before `before` go.
export async function sweepRecords(db: SqlDb, before: Date): Promise<void> {
  await db.deleteFrom('idempotencyRecords').where('createdAt', '<', before).execute();
}

// Claims the key for a request; false when a record of it exists (the primary key decides a race).
export async function insertClaim(db: SqlDb, k: RecordKey, requestHash: string): Promise<boolean> {
  const rows = await db
    .insertInto('idempotencyRecords')
    .values({ ...k, requestHash })
    .onConflict((oc) => oc.columns(['userId', 'key']).doNothing())
    .returning('key')
    .execute();
  return rows.length === 1;
}

export async function recordOf(db: SqlDb, k: RecordKey) {
  return db
    .selectFrom('idempotencyRecords')
    .select(['requestHash', 'responseStatus', 'responseBody', 'createdAt'])
    .where('userId', '=', k.userId)
    .where('key', '=', k.key)
    .executeTakeFirst();
}

// The key starts afresh for another request, if the record is still the one read (created at `createdAt`).
export async function restartClaim(db: SqlDb, k: RecordKey, createdAt: Date, requestHash: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('idempotencyRecords')
    .set({ requestHash, responseStatus: null, responseBody: null, createdAt: now })
    .where('userId', '=', k.userId)
    .where('key', '=', k.key)
    .where('createdAt', '=', createdAt)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

// A claim whose request did not succeed is freed.
export async function freeClaim(db: SqlDb, k: RecordKey): Promise<void> {
  await db.deleteFrom('idempotencyRecords').where('userId', '=', k.userId).where('key', '=', k.key).where('responseStatus', 'is', null).execute();
}

export async function storeAnswer(db: SqlDb, k: RecordKey, status: number, body: JsonValue | null): Promise<void> {
  await db
    .updateTable('idempotencyRecords')
    .set({ responseStatus: status, responseBody: json(body) })
    .where('userId', '=', k.userId)
    .where('key', '=', k.key)
    .execute();
}
