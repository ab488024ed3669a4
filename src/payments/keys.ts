// Idempotency keys for the processor. Each names what is paid and the step, and is never random where a
// retry must repeat the call: a retried job or request sends the same key, and the processor answers with
// the first result instead of charging again.
import { createHash } from 'node:crypto';

export type TaskPaymentStep = 'authorize' | 'capture' | 'release' | 'transfer';

export const taskPaymentKey = (taskId: string, step: TaskPaymentStep) => `task:${taskId}:${step}`;

// One processor customer and one connected account per user, however many requests race to create them.
export const customerKey = (userId: string) => `user:${userId}:customer`;
export const connectedAccountKey = (userId: string) => `user:${userId}:connected-account`;

// Every request for a setup intent is a new one; `requestId` is drawn per request.
export const setupIntentKey = (userId: string, requestId: string) => `user:${userId}:setup-intent:${requestId}`;

// A purchase repeated under the same Idempotency-Key header charges once. The header (up to 255
// characters, the processor's own limit) is hashed so the key stays short and carries no client text.
export const creditPurchaseKey = (userId: string, requestKey: string) =>
  `user:${userId}:credits:${createHash('sha256').update(requestKey).digest('hex').slice(0, 32)}`;
