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
import type { Deps } from '../deps.js';
import type { Config } from '../config.js';
import type { SqlTx } from '../db/kysely.js';
import { withTransaction, type AfterCommit } from '../db/transaction.js';
import { type Agent, type Payment, type PaymentStatus, type Task, type User } from '../generated/prisma/client.js';
import { AppError, conflict, forbidden, invalid, notFound, unauthenticated } from '../errors.js';
import type { Viewer } from './accounts.js';
import { newId } from '../ids.js';
import { enqueueSql, jobCallSql } from '../jobs/enqueue.js';
import { jobKey } from '../jobs/spec.js';
import { authorizePayment } from '../jobs/specs/payment-authorize.js';
import { capturePayment } from '../jobs/specs/payment-capture.js';
import { releasePayment } from '../jobs/specs/payment-release.js';
import { transferPayment } from '../jobs/specs/payment-transfer.js';
import {
  ProviderError,
  createPaymentProvider,
  intentIdFromClientSecret,
  isSimulatedProvider,
  type AuthorizeResult,
  type CardSummary,
  type PaymentProvider,
  type ProviderEvent,
} from '../payments/index.js';
import { ensureCustomer } from '../payments/customers.js';
import { CURRENCY, platformFeeCents } from '../payments/fees.js';
import { taskPaymentKey } from '../payments/keys.js';
import { giveCreditBack, takeCredit } from '../stores/credit-store.js';
import type { TerminalStatus } from '../lifecycle/task-lifecycle.js';
import * as store from '../stores/payment-store.js';
import { lockTask as lockTaskRow } from '../stores/task-store.js';
import { userById } from '../stores/accounts-store.js';

// How a task ended: one of the lifecycle's terminal states. Only completed takes the money (a refunded
// dispute gives it back like any other end).
export type TaskOutcome = TerminalStatus;

export interface PaymentPlan {
  method: 'free' | 'credit' | 'card';
  // true when the task may be delivered right away (free, or paid by a credit).
  ready: boolean;
  // The card payment just made, for placing its hold after the commit without reading it back.
  payment?: Payment;
}

// What the inline hold needs, known to the request that made the task: its new payment and the requester
// as authenticated (customer and default card), so neither is read again.
export interface KnownHold {
  payment: Payment;
  requester: User;
}

// The task's row as a transaction locked it (lockTask).
export type LockedTask = Pick<Task, 'status' | 'agentId' | 'startedAt'>;

export interface CardAuthorization {
  autoCharged: boolean;
  clientSecret: string | null;
}

export interface PaymentHooks {
  // In the transaction that moved the payment pending → authorized: the task may now be delivered.
  onAuthorized(tx: SqlTx, taskId: string, afterCommit: AfterCommit, locked: LockedTask | null): Promise<void>;
  // After the transaction that recorded a declined card (payment pending → released, failureMessage set):
  // the task cannot go ahead. Runs once per task.
  onDeclined?(taskId: string, message: string): Promise<void>;
}

// The time of a step, written with the status it moves to (see heldAt and settledAt in schema.prisma).
function stepTimeOf(to: PaymentStatus, now: Date): Partial<Payment> {
  if (to === 'authorized') return { heldAt: now };
  if (to === 'captured' || to === 'released' || to === 'refunded') return { settledAt: now };
  return {};
}

// The authorize job is the safety net for a process that dies between the commit and the inline call; it
// waits a little so it normally finds the hold already placed and has nothing to do.
export const AUTHORIZE_JOB_DELAY_MS = 10_000;

export function paymentProviderOf(config: Config, serverKey: Buffer): PaymentProvider {
  return createPaymentProvider({
    serverKey,
    stripeSecretKey: config.stripe.secretKey ?? undefined,
    stripeWebhookSecret: config.stripe.webhookSecret ?? undefined,
    stripeApiHost: config.stripe.apiHost ?? undefined,
    stripeApiPort: config.stripe.apiPort ?? undefined,
    stripeApiProtocol: config.stripe.apiProtocol ?? undefined,
  });
}

/**
 * Lock order: every transaction that changes both a task and its payment locks the task first, then the
 * payment; credit balances and agents come after the task too. Ending a task does so naturally (its
 * status update, then finalize), and so does matching (the task, then its new payment);
 * the hold confirmation, which starts from the payment, takes the task's row lock before touching the
 * payment. Two transactions taking the rows in opposite orders can deadlock, and PostgreSQL then aborts
 * one of them (40P01).
 */
// `removeJob`: the key of a pending job to remove in the same statement (one round trip for both).
export function lockTask(tx: SqlTx, taskId: string, removeJob: string | null = null): Promise<LockedTask | null> {
  return lockTaskRow(tx, taskId, removeJob);
}

// Provider failures that say the card or the request will never work, as opposed to our own set-up
// (bad key) or a passing outage, which are retried.
const OUR_FAULT = new Set(['provider_auth', 'internal', 'idempotency_conflict']);
const isHopeless = (error: unknown): error is ProviderError =>
  error instanceof ProviderError && !error.retryable && !OUR_FAULT.has(error.code);

const declined = (message: string) => new AppError('PAYMENT_REQUIRED', `the card was declined: ${message}`, { details: { reason: 'payment_declined' } });

export function paymentService(deps: Deps, hooks: PaymentHooks, provider: PaymentProvider = paymentProviderOf(deps.config, deps.serverKey)) {
  const { logger, config, clock } = deps;

  const transaction = <T>(work: (tx: SqlTx, afterCommit: AfterCommit) => Promise<T>) =>
    withTransaction(deps.sql, work, (error) => logger.error({ err: error }, 'payment after-commit work failed'));

  // One conditional update with its step's time (payment-store.ts).
  function move(tx: SqlTx, paymentId: string, from: PaymentStatus[], to: PaymentStatus, data: store.PaymentChanges = {}): Promise<boolean> {
    const now = clock.now();
    return store.movePayment(tx, { id: paymentId, from, to, now, changes: { ...data, ...stepTimeOf(to, now) } });
  }

  const releaseJob = (tx: SqlTx, taskId: string, intentId?: string) =>
    enqueueSql(tx, releasePayment, intentId ? { taskId, intentId } : { taskId });

  // The processor reports (or the inline call learned) that the hold stands, on `card` when it said which.
  // The authorize job queued as the safety net has nothing left to do once this commits (the hold is
  // recorded, or let go when the task ended meanwhile): unless it is the job running this, it is removed
  // with the lock, rather than left to wake up AUTHORIZE_JOB_DELAY_MS later to find the hold placed.
  async function holdPlaced(tx: SqlTx, afterCommit: AfterCommit, payment: Payment, intentId: string, card: CardSummary | null, from: 'request' | 'job' | 'processor'): Promise<void> {
    const safetyNet = from === 'job' ? null : jobKey(authorizePayment, { taskId: payment.taskId });
    const locked = await lockTask(tx, payment.taskId, safetyNet);
    const shown = card ? { cardBrand: card.brand.slice(0, 40), cardLast4: card.last4.slice(0, 4) } : {};
    if (await move(tx, payment.id, ['pending'], 'authorized', { intentId, ...shown })) await hooks.onAuthorized(tx, payment.taskId, afterCommit, locked);
    else await releaseIfEnded(tx, payment, intentId);
  }

  // The task ended while its hold was being placed: the hold is let go.
  async function releaseIfEnded(tx: SqlTx, payment: Payment, intentId: string): Promise<void> {
    const current = await store.paymentById(tx, payment.id);
    if (current?.status !== 'released') return;
    await store.recordLateIntent(tx, payment.id, intentId, clock.now());
    await releaseJob(tx, payment.taskId, intentId);
  }

  async function recordDecline(payment: Payment, intentId: string | null, message: string): Promise<void> {
    await transaction(async (tx, afterCommit) => {
      if (!(await move(tx, payment.id, ['pending'], 'released', { failureMessage: message.slice(0, 500), ...(intentId ? { intentId } : {}) }))) return;
      // A declined intent could still be confirmed later with another card; cancel it so it cannot.
      if (intentId) await releaseJob(tx, payment.taskId, intentId);
      const onDeclined = hooks.onDeclined;
      if (onDeclined) afterCommit(() => onDeclined(payment.taskId, message));
    });
  }

  async function rememberIntent(payment: Payment, intentId: string, autoCharged: boolean): Promise<boolean> {
    return transaction(async (tx) => {
      if (await move(tx, payment.id, ['pending'], 'pending', { intentId, autoCharged })) return true;
      await releaseIfEnded(tx, payment, intentId);
      return false;
    });
  }

  /**
   * Places the hold for a card-paid task. Called inline after task creation (`from: 'request'`, which
   * needs the client secret) and by the payment.authorize job (the safety net). Both send the key
   * task:<id>:authorize, so the processor creates one PaymentIntent per task however often this runs.
   */
  async function placeHold(taskId: string, from: 'request' | 'job', known?: KnownHold): Promise<CardAuthorization> {
    const payment = known
      ? { ...known.payment, task: { requesterId: known.requester.id } }
      : await store.paymentWithRequester(deps.sql, { taskId });
    if (!payment || payment.method !== 'card') return { autoCharged: false, clientSecret: null };
    if (payment.status !== 'pending') {
      if (payment.status === 'released' && payment.failureMessage && from === 'request') throw declined(payment.failureMessage);
      return { autoCharged: payment.autoCharged, clientSecret: null };
    }
    // A hold already asked for waits for the requester's confirmation; the job has nothing to add.
    if (from === 'job' && payment.intentId) return { autoCharged: payment.autoCharged, clientSecret: null };

    let result: AuthorizeResult;
    try {
      const { user, customerId } = await ensureCustomer(deps.sql, provider, payment.task.requesterId, clock.now(), known?.requester);
      // autoCharged was decided at matching; a card removed since then leaves the requester to confirm.
      const paymentMethodId = payment.autoCharged ? user.defaultPaymentMethodId : null;
      result = await provider.authorize({
        amountCents: payment.amountCents,
        currency: CURRENCY,
        customerId,
        paymentMethodId,
        taskId,
        description: `Task ${taskId}`,
        idempotencyKey: taskPaymentKey(taskId, 'authorize'),
      });
    } catch (error) {
      if (isHopeless(error)) {
        result = { status: 'declined', intentId: null, message: error.message };
      } else {
        // A passing outage: the job retries with the same key. The request answers without a secret.
        if (from === 'job') throw error;
        logger.warn({ err: error, taskId }, 'card hold not placed yet; the payment.authorize job will retry');
        return { autoCharged: payment.autoCharged, clientSecret: null };
      }
    }

    switch (result.status) {
      case 'declined':
        await recordDecline(payment, result.intentId, result.message);
        if (from === 'request') throw declined(result.message);
        return { autoCharged: payment.autoCharged, clientSecret: null };
      case 'requires_confirmation': {
        const stillPending = await rememberIntent(payment, result.intentId, false);
        return { autoCharged: false, clientSecret: stillPending ? result.clientSecret : null };
      }
      case 'authorized': {
        const { intentId, card } = result;
        await transaction((tx, afterCommit) => holdPlaced(tx, afterCommit, payment, intentId, card, from));
        return { autoCharged: true, clientSecret: null };
      }
    }
  }

  // The payment with what paying out needs: the payee's connected account (one statement).
  const payoutOf = (taskId: string) => store.payoutOf(deps.sql, taskId);

  // The owner's share to their connected account, once per payment (see transfer).
  async function payOut(payment: Payment & { connectAccountId: string | null }): Promise<void> {
    const { taskId } = payment;
    if (payment.method !== 'card' || payment.status !== 'captured' || payment.transferId || !payment.payeeId) return;
    if (payment.failureMessage) return;
    // The fee was fixed when the capture was decided; a later change of PLATFORM_FEE_BPS does not touch it.
    const amountCents = payment.amountCents - payment.feeCents;
    if (amountCents <= 0) return;
    if (!payment.connectAccountId) {
      logger.info({ taskId, payeeId: payment.payeeId, amountCents }, 'owner has no connected account; the transfer is owed');
      return;
    }
    let transferId: string;
    try {
      ({ transferId } = await provider.transfer({
        amountCents,
        currency: CURRENCY,
        destinationAccountId: payment.connectAccountId,
        transferGroup: taskId,
        idempotencyKey: taskPaymentKey(taskId, 'transfer'),
      }));
    } catch (error) {
      if (error instanceof ProviderError && !error.retryable) {
        // Typically an account whose onboarding is unfinished; it stays owed.
        logger.warn({ err: error, taskId }, 'transfer refused; it stays owed');
        return;
      }
      throw error;
    }
    await store.recordTransfer(deps.sql, payment.id, transferId, clock.now());
  }

  // The payment's final move for how the task ended; false when its conditional move found it elsewhere.
  async function settle(tx: SqlTx, payment: Payment, outcome: TaskOutcome): Promise<boolean> {
    const { taskId } = payment;
    const completed = outcome === 'completed';
    if (payment.method === 'free') return move(tx, payment.id, ['authorized'], completed ? 'captured' : 'released');
    if (payment.method === 'credit') {
      // The credit was taken at matching (ledger 'use'); completion makes that final, anything else gives it back.
      if (completed) return move(tx, payment.id, ['authorized'], 'captured');
      if (!(await move(tx, payment.id, ['authorized'], 'refunded'))) return false;
      await giveCreditBack(tx, taskId, newId('cle'), clock.now());
      return true;
    }
    if (completed && payment.status === 'authorized') {
      // The capture decision and its job in one statement; the job only when the move was made.
      const feeCents = platformFeeCents(payment.amountCents, config.platformFeeBps);
      const now = clock.now();
      return store.movePayment(tx, { id: payment.id, from: ['authorized'], to: 'captured', now, changes: { feeCents, settledAt: now }, job: jobCallSql(capturePayment, { taskId }) });
    }
    // Not completed, or completed without a hold to capture: whatever is held is let go.
    if (completed) logger.error({ taskId, status: payment.status }, 'task completed without an authorized payment; releasing it');
    if (!(await move(tx, payment.id, ['pending', 'authorized'], 'released'))) return false;
    await releaseJob(tx, taskId);
    return true;
  }

  // One event from the processor, in the transaction that records its id as processed.
  async function applyEvent(tx: SqlTx, afterCommit: AfterCommit, event: ProviderEvent, card: CardSummary | null): Promise<void> {
    if (!event.intentId) return;
    const payment = await store.paymentOfIntent(tx, event.intentId);
    // Not a task's hold (a credit purchase, or another system's intent on the same account).
    if (!payment) return;
    if (event.type === 'payment_intent.amount_capturable_updated') {
      if (payment.status === 'pending') await holdPlaced(tx, afterCommit, payment, event.intentId, card, 'processor');
      else if (payment.status === 'released') await releaseJob(tx, payment.taskId, event.intentId);
    }
  }

  // Which card a hold stands on, asked before the event's transaction (no processor call inside one). Only
  // for the words on the task page, so a processor that cannot say now leaves it unknown rather than
  // holding up the task.
  async function cardOfHold(event: ProviderEvent): Promise<CardSummary | null> {
    if (event.type !== 'payment_intent.amount_capturable_updated' || !event.intentId) return null;
    try {
      return await provider.holdCard(event.intentId);
    } catch (error) {
      logger.warn({ err: error, intentId: event.intentId }, 'could not learn which card holds the payment');
      return null;
    }
  }

  async function handleEvent(event: ProviderEvent): Promise<'processed' | 'duplicate'> {
    const card = await cardOfHold(event);
    return transaction(async (tx, afterCommit) => {
      // The insert waits for a concurrent delivery of the same event, so one of them handles it.
      if (!(await store.recordWebhookEvent(tx, event.id, event.type))) return 'duplicate';
      await applyEvent(tx, afterCommit, event, card);
      return 'processed';
    });
  }

  const service = {
    provider,

    // Inside the matching transaction. `fresh`: the task was made in this transaction, so it has no payment.
    // `requester`: the requester as the request authenticated him (his default card is not read again).
    async prepare(tx: SqlTx, task: Task, agent: Agent, { fresh = false, requester }: { fresh?: boolean; requester?: User } = {}): Promise<PaymentPlan> {
      const existing = fresh ? null : await store.paymentOfTask(tx, task.id);
      if (existing) return { method: existing.method, ready: existing.status === 'authorized' || existing.status === 'captured' };
      // createdAt from the clock: a card hold's life is counted from it (payments/hold-life.ts).
      const base = { id: newId('pay'), taskId: task.id, amountCents: agent.priceCents, payeeId: agent.ownerId, createdAt: clock.now() };
      if (agent.priceCents === 0) {
        await store.insertPayment(tx, { ...base, method: 'free', status: 'authorized' });
        return { method: 'free', ready: true };
      }
      if (await takeCredit(tx, { userId: task.requesterId, agentId: agent.id, taskId: task.id, entryId: newId('cle'), now: clock.now() })) {
        await store.insertPayment(tx, { ...base, method: 'credit', status: 'authorized', heldAt: base.createdAt });
        return { method: 'credit', ready: true };
      }
      const payer = requester?.id === task.requesterId
        ? requester
        : await userById(tx, task.requesterId);
      if (!payer) throw notFound('user');
      const safetyNet = jobCallSql(authorizePayment, { taskId: task.id }, { runAt: new Date(clock.now().getTime() + AUTHORIZE_JOB_DELAY_MS) });
      const payment = await store.insertPayment(tx, { ...base, method: 'card', status: 'pending', autoCharged: payer.defaultPaymentMethodId !== null, provider: provider.name }, safetyNet);
      return { method: 'card', ready: false, payment };
    },

    // After the matching transaction committed, for card payments. Throws 402 when the card is declined.
    authorizeCard: (taskId: string, known?: KnownHold) => placeHold(taskId, 'request', known),

    // Job payment.authorize.
    authorizeFromJob: async (taskId: string) => void (await placeHold(taskId, 'job')),

    // Inside the transaction that moves the task to a terminal state. Idempotent: a second call finds
    // the payment already final and changes nothing. `known`: the payment as the caller read it with the
    // task; used when it was authorized (the state it keeps while the agent works), and read again when
    // its conditional move finds it changed.
    async finalize(tx: SqlTx, taskId: string, outcome: TaskOutcome, known?: Payment | null): Promise<void> {
      if (known && known.taskId === taskId && known.status === 'authorized' && (await settle(tx, known, outcome))) return;
      const payment = await store.paymentOfTask(tx, taskId);
      if (payment) await settle(tx, payment, outcome);
    },

    // Job payment.capture: the decision is already recorded (status captured); this tells the processor,
    // then pays the owner's share in the same run (a retry captures again under the same key, which the
    // processor answers with the capture already made, and goes on to the transfer).
    async capture(taskId: string): Promise<void> {
      const payment = await payoutOf(taskId);
      if (!payment || payment.method !== 'card' || payment.status !== 'captured' || !payment.intentId) return;
      try {
        await provider.capture({ intentId: payment.intentId, idempotencyKey: taskPaymentKey(taskId, 'capture') });
      } catch (error) {
        if (error instanceof ProviderError && !error.retryable) {
          // E.g. the hold expired at the processor. Retrying cannot help; the status stays captured (the
          // decision) and the failure is recorded, so no share is transferred for money never received.
          logger.error({ err: error, taskId }, 'capture refused by the payment processor');
          await store.recordFailure(deps.sql, payment.id, `capture failed: ${error.message}`.slice(0, 500), clock.now());
          return;
        }
        throw error;
      }
      await payOut(payment);
    },

    // Job payment.release: cancels the PaymentIntent of a released payment (a late hold included).
    async release(taskId: string, lateIntentId?: string): Promise<void> {
      const payment = await store.paymentOfTask(deps.sql, taskId);
      if (!payment || payment.method !== 'card' || payment.status !== 'released') return;
      const intentId = lateIntentId ?? payment.intentId;
      if (!intentId) return;
      try {
        await provider.release({ intentId, idempotencyKey: taskPaymentKey(taskId, 'release') });
      } catch (error) {
        if (error instanceof ProviderError && !error.retryable) {
          logger.error({ err: error, taskId }, 'release refused by the payment processor');
          return;
        }
        throw error;
      }
    },

    // Job payment.transfer: the owner's share goes to their connected account (separate charges and
    // transfers, transfer_group = task id). Without an account the share stays owed: the payment keeps
    // transferId null and payeeId, and is paid when the owner connects one (billing.startPayoutOnboarding).
    async transfer(taskId: string): Promise<void> {
      const payment = await payoutOf(taskId);
      if (payment) await payOut(payment);
    },



    // POST /v1/webhooks/stripe: verifies the signature over the raw bytes, then handles each event id once.
    async handleWebhook(rawBody: Buffer, signature: string | undefined): Promise<'processed' | 'duplicate'> {
      return handleEvent(provider.parseWebhook(rawBody, signature));
    },

    /**
     * Simulated provider only, outside production: what the processor's client library does with a client
     * secret, for the task's requester. A success is handled exactly as the processor's webhook would be,
     * under the same event id.
     */
    async simulateConfirmation(viewer: Viewer | null, clientSecret: string, paymentMethodId = 'pm_card_visa'): Promise<{ status: PaymentStatus }> {
      if (!isSimulatedProvider(provider) || config.env === 'production') throw notFound('simulated payments are not enabled; the endpoint');
      if (!viewer) throw unauthenticated('send Authorization: Bearer <API key or access token> of the task\'s requester');
      const intentId = intentIdFromClientSecret(clientSecret);
      if (!intentId) throw invalid('clientSecret', 'clientSecret is not a payment client secret');
      const payment = await store.paymentWithRequester(deps.sql, { intentId });
      if (!payment) throw notFound('payment');
      let confirmation;
      try {
        confirmation = provider.confirmHold({ clientSecret, idempotencyKey: taskPaymentKey(payment.taskId, 'authorize'), paymentMethodId });
      } catch (error) {
        if (error instanceof ProviderError) throw notFound('payment');
        throw error;
      }
      // Checked after the secret, so that a stranger learns nothing about which intents exist.
      if (payment.task.requesterId !== viewer.id) throw forbidden('only the task\'s requester confirms its payment');
      if (payment.status === 'authorized') return { status: 'authorized' };
      if (payment.status !== 'pending') throw conflict(`the payment is ${payment.status}; it can no longer be confirmed`, { status: payment.status });
      if (confirmation.status === 'declined') throw declined(confirmation.message);
      await handleEvent({ id: confirmation.eventId, type: 'payment_intent.amount_capturable_updated', intentId, status: 'requires_capture' });
      const after = await store.paymentById(deps.sql, payment.id);
      return { status: after!.status };
    },

    // Owed shares of this owner (captured, not transferred): queued again, e.g. once they have an account.
    async retryOwedTransfers(payeeId: string): Promise<number> {
      const owed = await store.owedTransfers(deps.sql, payeeId);
      if (owed.length === 0) return 0;
      await deps.sql.transaction().execute(async (tx) => {
        for (const taskId of owed) await enqueueSql(tx, transferPayment, { taskId });
      });
      return owed.length;
    },
  };
  return service;
}

export type PaymentService = ReturnType<typeof paymentService>;
