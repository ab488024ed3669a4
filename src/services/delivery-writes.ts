// The two writes every delivery attempt makes, in SQL: the attempt's record and the delivery's release.
// They run once per delivery on the hot path, where a Prisma model call costs about twice the service
// CPU of a raw statement (bench/prisma-call-cost.ts). Same statements as the model calls made, one each.
import type { Tx } from '../db/client.js';

export interface AttemptRecord {
  id: string;
  deliveryId: string;
  number: number;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  at: Date;
}

export async function insertAttempt(t: Tx, a: AttemptRecord): Promise<void> {
  await t.$executeRaw`
    INSERT INTO delivery_attempts (id, delivery_id, number, status_code, latency_ms, error, at)
    VALUES (${a.id}, ${a.deliveryId}, ${a.number}::int, ${a.statusCode}::int, ${a.latencyMs}::int, ${a.error}::text, ${a.at}::timestamptz)`;
}

// Ends the attempt's claim; `status` null keeps the delivery pending (a retry at nextAttemptAt).
// updated_at from the process's clock, as Prisma's @updatedAt sets it. A delivery that is gone (its task
// deleted meanwhile) throws, as the model update did, so the transaction does not commit half of it.
export async function releaseDelivery(t: Tx, id: string, status: 'succeeded' | 'failed' | null, nextAttemptAt: Date | null): Promise<void> {
  const updated = await t.$executeRaw`
    UPDATE deliveries
    SET attempt_job_id = NULL, attempt_started_at = NULL, next_attempt_at = ${nextAttemptAt}::timestamptz,
        status = COALESCE(${status}::text::"DeliveryStatus", status), updated_at = ${new Date()}::timestamptz
    WHERE id = ${id}`;
  if (updated !== 1) throw new Error(`delivery ${id} is gone`);
}
