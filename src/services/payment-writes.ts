// The payment every matched task gets, inserted in SQL in the matching transaction (returned as the Payment
// model's row). Its later moves go through the payment service's move(), which writes each step's time with
// its status. A Prisma model call costs about twice the service CPU of a raw statement
// (bench/prisma-call-cost.ts).
import type { Tx } from '../db/client.js';
import { insertRow } from '../db/columns.js';
import type { Payment, PaymentMethod, PaymentStatus, Prisma } from '../generated/prisma/client.js';
import { PAYMENT_COLUMNS } from './payment-columns.js';

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
export function insertPayment(tx: Tx, p: NewPayment, job?: Prisma.Sql): Promise<Payment> {
  return insertRow(tx, 'payments', PAYMENT_COLUMNS, p, { job });
}
