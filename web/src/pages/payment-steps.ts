// The payment's steps for the task's timeline, read from the payment itself (heldAt, settledAt and its
// status, written together by the service), so the timeline and the payment line can never disagree.
import type { DashTaskFragment } from '../generated/gql/graphql.js';
import { cardWords, price } from '../format.js';

type Payment = NonNullable<DashTaskFragment['payment']>;

export interface PaymentStep {
  at: string;
  // Where the step sits among moves at the same instant: a hold before the match it allows, a settlement
  // after the move that ended the task.
  order: -1 | 2;
  kind: 'held' | 'captured' | 'released' | 'refunded';
  words: string;
}

export function paymentSteps(payment: Payment | null | undefined): PaymentStep[] {
  if (!payment || payment.method === 'free' || payment.amountCents === 0) return [];
  const steps: PaymentStep[] = [];
  const heldAt = payment.heldAt as string | null;
  const settledAt = payment.settledAt as string | null;
  if (payment.method === 'credit') {
    if (heldAt) steps.push({ at: heldAt, order: -1, kind: 'held', words: 'used 1 credit to pay for the task' });
    if (settledAt && payment.status === 'refunded') steps.push({ at: settledAt, order: 2, kind: 'refunded', words: 'gave the credit back' });
    return steps;
  }
  const amount = price(payment.amountCents);
  const card = cardWords(payment);
  if (heldAt) steps.push({ at: heldAt, order: -1, kind: 'held', words: `held ${amount} on ${card}` });
  if (!settledAt) return steps;
  if (payment.status === 'captured') steps.push({ at: settledAt, order: 2, kind: 'captured', words: `captured ${amount} from ${card}` });
  // A hold never placed (declined, or the task ended first) has nothing to release.
  else if (payment.status === 'released' && heldAt) steps.push({ at: settledAt, order: 2, kind: 'released', words: `released the ${amount} hold; nothing was charged` });
  else if (payment.status === 'refunded') steps.push({ at: settledAt, order: 2, kind: 'refunded', words: `refunded ${amount} to ${card}` });
  return steps;
}
