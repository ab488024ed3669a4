// How a task is paid, decided in the matching transaction: free (price 0), credit (one of the requester's
// credits for the agent), or card (a pending payment whose hold is placed after the commit).
import type { SqlTx } from '../../db/kysely.js';
import type { Agent, Task, User } from '../../generated/prisma/client.js';
import { notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { jobsCall, queuedJob, type QueuedJob } from '../../stores/job-store.js';
import { authorizePayment } from '../../jobs/specs/payment-authorize.js';
import { takeCredit } from '../../stores/credit-store.js';
import * as store from '../../stores/payment-store.js';
import { userById } from '../../stores/accounts-store.js';
import type { PaymentContext, PaymentPlan } from './types.js';

// The authorize job is the safety net for a process that dies between the commit and the inline call; it
// waits a little so it normally finds the hold already placed and has nothing to do.
export const AUTHORIZE_JOB_DELAY_MS = 10_000;

// A task for an agent that asks nothing is free: its payment is authorized from the start, so the task may be
// delivered at once, and it needs nothing besides its row (the task's own statement can write it, see
// tasks/create.ts). Null for an agent with a price.
export function freePayment(agent: Pick<Agent, 'priceCents' | 'ownerId'>, now: Date): store.NewTaskPayment | null {
  if (agent.priceCents !== 0) return null;
  return { id: newId('pay'), method: 'free', status: 'authorized', amountCents: 0, payeeId: agent.ownerId, createdAt: now };
}

// Inside the matching transaction. `fresh`: the task was made in this transaction, so it has no payment.
// `requester`: the requester as the request authenticated him (his default card is not read again).
// `jobs`: the fresh task's own jobs (its expiry), added with a card payment's safety net, which waits for
// the hold, so that they wake the worker once together; a plan that is ready leaves them to the match.
export async function prepare(
  ctx: PaymentContext,
  tx: SqlTx,
  task: Task,
  agent: Pick<Agent, 'id' | 'priceCents' | 'ownerId'>,
  { fresh = false, requester, jobs = [] }: { fresh?: boolean; requester?: User; jobs?: QueuedJob[] } = {},
): Promise<PaymentPlan> {
  const { provider, deps: { clock } } = ctx;
  const existing = fresh ? null : await store.paymentOfTask(tx, task.id);
  if (existing) return { method: existing.method, ready: existing.status === 'authorized' || existing.status === 'captured' };
  const free = freePayment(agent, clock.now());
  if (free) {
    await store.insertPayment(tx, { ...free, taskId: task.id });
    return { method: 'free', ready: true };
  }
  // createdAt from the clock: a card hold's life is counted from it (payments/hold-life.ts).
  const base = { id: newId('pay'), taskId: task.id, amountCents: agent.priceCents, payeeId: agent.ownerId, createdAt: clock.now() };
  if (await takeCredit(tx, { userId: task.requesterId, agentId: agent.id, taskId: task.id, entryId: newId('cle'), now: clock.now() })) {
    await store.insertPayment(tx, { ...base, method: 'credit', status: 'authorized', heldAt: base.createdAt });
    return { method: 'credit', ready: true };
  }
  const payer = requester?.id === task.requesterId
    ? requester
    : await userById(tx, task.requesterId);
  if (!payer) throw notFound('user');
  const safetyNet = queuedJob(authorizePayment, { taskId: task.id }, { runAt: new Date(clock.now().getTime() + AUTHORIZE_JOB_DELAY_MS) });
  const payment = await store.insertPayment(
    tx,
    { ...base, method: 'card', status: 'pending', autoCharged: payer.defaultPaymentMethodId !== null, provider: provider.name },
    jobsCall([safetyNet, ...jobs]),
  );
  return { method: 'card', ready: false, payment };
}
