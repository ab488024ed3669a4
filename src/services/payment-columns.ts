// The payments table's columns by the Payment model's field names, for the payout read written in SQL
// (services/payments.ts), which joins the payee's connected account in the same statement.
import type { Payment, Prisma } from '../generated/prisma/client.js';
import { selectionOf, type Columns } from '../db/columns.js';

export const PAYMENT_COLUMNS: Columns<Payment> = {
  id: ['id', 'text'],
  taskId: ['task_id', 'text'],
  method: ['method', 'PaymentMethod'],
  status: ['status', 'PaymentStatus'],
  amountCents: ['amount_cents', 'int'],
  feeCents: ['fee_cents', 'int'],
  autoCharged: ['auto_charged', 'boolean'],
  provider: ['provider', 'text'],
  intentId: ['intent_id', 'text'],
  transferId: ['transfer_id', 'text'],
  payeeId: ['payee_id', 'text'],
  failureMessage: ['failure_message', 'text'],
  cardBrand: ['card_brand', 'text'],
  cardLast4: ['card_last4', 'text'],
  heldAt: ['held_at', 'timestamptz'],
  settledAt: ['settled_at', 'timestamptz'],
  createdAt: ['created_at', 'timestamptz'],
  updatedAt: ['updated_at', 'timestamptz'],
};

export const paymentSelection = (alias: string): Prisma.Sql => selectionOf(PAYMENT_COLUMNS, alias);
