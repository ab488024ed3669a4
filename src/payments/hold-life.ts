// A card hold lapses at the processor 7 days after it is placed (Stripe's limit for online card
// payments). Every wait a held task can go through (input, review, an uncontested dispute) ends before
// then, so a payment is always captured or released while it still can be. Credits and free tasks have no
// such limit.
import type { Payment } from '../generated/prisma/client.js';

// A card hold lapses after this many seconds (7 days).
export const CARD_HOLD_SECONDS = 604_800;

// Auto-approval and cancellation run this long before the hold would lapse, leaving room for the job,
// its retries and the capture call.
export const HOLD_SAFETY_MARGIN_MS = 60 * 60_000;

/** The latest time a held card payment can still be finalized, or null when nothing lapses. */
export function paymentDeadline(payment: Pick<Payment, 'method' | 'status' | 'createdAt'> | null): Date | null {
  if (!payment || payment.method !== 'card' || !['pending', 'authorized'].includes(payment.status)) return null;
  return new Date(payment.createdAt.getTime() + CARD_HOLD_SECONDS * 1000 - HOLD_SAFETY_MARGIN_MS);
}

export function earliest(a: Date, b: Date | null): Date {
  return b !== null && b < a ? b : a;
}
