// How a task is paid: decided in the matching transaction, finalized in the transaction that ends the task.
//
// Methods: free (price 0), credit (one of the requester's credits for the agent), card (a manual-capture
// hold for the agent's price). Payment status moves only by conditional updates on the current status:
//   pending ─► authorized ─► captured            (card: hold placed, then captured on completion)
//      │           └───────► released / refunded (hold cancelled, or credit given back)
//      └───────────────────► released            (never held: task ended first, or the card was declined)
// captured and released are final and exclusive, so a capture never follows a release nor a release a capture.
// Processor calls happen after commit or in jobs (payment.authorize, .capture, .release, .transfer), never
// inside a database transaction, and each carries a key derived from the task and the step.
//
// The rules are plain functions of a PaymentContext in this folder's modules; this service binds them to
// one context, so its callers say `services.payments.finalize(tx, …)`.
import type { Deps } from '../../deps.js';
import type { PaymentProvider } from '../../payments/index.js';
import { handleWebhook } from './events.js';
import { authorizeCard, authorizeFromJob } from './holds.js';
import { holdConfirmation } from './hold-confirmation.js';
import { retryOwedTransfers, transfer } from './payouts.js';
import { prepare } from './plan.js';
import { paymentProviderOf } from './provider.js';
import { capture, finalize, release } from './settle.js';
import { simulateConfirmation } from './simulated-confirmation.js';
import type { PaymentContext, PaymentHooks } from './types.js';

export { paymentProviderOf } from './provider.js';
// The rules the task service writes with a task's own statement.
export { freePayment } from './plan.js';
export { plainSettle } from './settle.js';
export type { CardAuthorization, KnownHold, LockedTask, PaymentContext, PaymentHooks, PaymentPlan, TaskOutcome } from './types.js';

export function paymentService(deps: Deps, hooks: PaymentHooks, provider: PaymentProvider = paymentProviderOf(deps.config, deps.serverKey)) {
  const ctx: PaymentContext = { deps, hooks, provider };
  const bound = <A extends unknown[], R>(rule: (ctx: PaymentContext, ...args: A) => R) => (...args: A): R => rule(ctx, ...args);
  return {
    provider,
    prepare: bound(prepare),
    authorizeCard: bound(authorizeCard),
    authorizeFromJob: bound(authorizeFromJob),
    finalize: bound(finalize),
    capture: bound(capture),
    release: bound(release),
    transfer: bound(transfer),
    handleWebhook: bound(handleWebhook),
    simulateConfirmation: bound(simulateConfirmation),
    holdConfirmation: bound(holdConfirmation),
    retryOwedTransfers: bound(retryOwedTransfers),
  };
}

export type PaymentService = ReturnType<typeof paymentService>;
