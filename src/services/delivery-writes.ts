// The write every delivery attempt makes, in SQL: the attempt's record and the delivery's release, one
// statement (one round trip) on the hot path, where a Prisma model call costs about twice the service
// CPU of a raw statement (bench/prisma-call-cost.ts).
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

// What the attempt leaves the delivery with: `status` null keeps it pending (a retry at nextAttemptAt).
export interface DeliveryRelease {
  status: 'succeeded' | 'failed' | null;
  nextAttemptAt: Date | null;
}

// Records the attempt and ends its claim on the delivery. updated_at from the process's clock, as
// Prisma's @updatedAt sets it. A delivery that is gone (its task deleted meanwhile) throws, so the
// transaction does not commit half of it (the insert's foreign key fails first in that case).
export async function recordAttempt(t: Tx, a: AttemptRecord, release: DeliveryRelease): Promise<void> {
  const updated = await t.$executeRaw`
    WITH attempt AS (
      INSERT INTO delivery_attempts (id, delivery_id, number, status_code, latency_ms, error, at)
      VALUES (${a.id}, ${a.deliveryId}, ${a.number}::int, ${a.statusCode}::int, ${a.latencyMs}::int, ${a.error}::text, ${a.at}::timestamptz)
    )
    UPDATE deliveries
    SET attempt_job_id = NULL, attempt_started_at = NULL, next_attempt_at = ${release.nextAttemptAt}::timestamptz,
        status = COALESCE(${release.status}::text::"DeliveryStatus", status), updated_at = ${new Date()}::timestamptz
    WHERE id = ${a.deliveryId}`;
  if (updated !== 1) throw new Error(`delivery ${a.deliveryId} is gone`);
}
