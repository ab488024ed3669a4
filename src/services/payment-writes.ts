// The payment every matched task gets, inserted in SQL in the matching transaction (returned as the Payment
// model's row). Its later moves go through the payment service's move(), which writes each step's time with
// its status. A Prisma model call costs about twice the service CPU of a raw
// statement (bench/prisma-call-cost.ts). The columns Prisma's calls wrote, defaults included.
import type { Tx } from '../db/client.js';
import { Prisma, type Payment, type PaymentMethod, type PaymentStatus } from '../generated/prisma/client.js';
import { paymentSelection } from './payment-columns.js';

export interface NewPayment {
  id: string;
  taskId: string;
  method: PaymentMethod;
  status: PaymentStatus;
  amountCents: number;
  payeeId: string;
  createdAt: Date;
  autoCharged?: boolean;
  provider?: string | null;
  heldAt?: Date | null;
}

// `job`: a job the payment causes (a jobCall of jobs/enqueue.ts), added in the same statement.
export async function insertPayment(tx: Tx, p: NewPayment, job: Prisma.Sql | null = null): Promise<Payment> {
  // updated_at from the process's clock, as Prisma's @updatedAt sets it on create.
  const rows = await tx.$queryRaw<Array<Payment & { jobId?: unknown }>>`
    WITH p AS (
      INSERT INTO payments (id, task_id, method, status, amount_cents, fee_cents, auto_charged, provider, payee_id, held_at, created_at, updated_at)
      VALUES (${p.id}, ${p.taskId}, ${p.method}::text::"PaymentMethod", ${p.status}::text::"PaymentStatus", ${p.amountCents}::int, 0,
              ${p.autoCharged ?? false}::boolean, ${p.provider ?? null}::text, ${p.payeeId}, ${p.heldAt ?? null}::timestamptz,
              ${p.createdAt}::timestamptz, ${new Date()}::timestamptz)
      RETURNING *
    )
    SELECT ${paymentSelection('p')}${job ? Prisma.sql`, (${job}).id::text AS "jobId"` : Prisma.empty} FROM p`;
  const row = rows[0]!;
  delete row.jobId;
  return row;
}
