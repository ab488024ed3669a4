// A new task: routed, paid for and matched, in one statement where it can be; an Idempotency-Key repeat
// answered with the task the first request made.
import { Prisma, type Task } from '../../generated/prisma/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { FileRow } from '../../stores/file-store.js';
import { invalid } from '../../errors.js';
import { newId } from '../../ids.js';
import { jobsCall, queuedJob, type QueuedJob } from '../../stores/job-store.js';
import { expireTask } from '../../jobs/specs/task-expire.js';
import { routeTask } from '../../jobs/specs/task-route.js';
import { json } from '../../stores/json.js';
import { paymentOfTask } from '../../stores/payment-store.js';
import { dropIdempotencyKey, insertTask, taskOfIdempotencyKey, type NewTask } from '../../stores/task-store.js';
import type { Viewer } from '../accounts/index.js';
import { IDEMPOTENCY_WINDOW_MS } from '../idempotency-window.js';
import { freePayment, type KnownHold, type PaymentPlan } from '../payments/index.js';
import type { RoutingExplanation } from '../routing.js';
import type { CreateTaskInput } from '../task-input.js';
import { requirementsJson, type Routed } from '../task-routing.js';
import { announce, tx, type TaskCore } from './context.js';
import { assign, createMatched } from './match.js';
import type { CreatedTask, TaskWithPayment } from './types.js';
import { ROUTE_RETRY_MS } from './waiting.js';

/**
 * With `idempotencyKey` (the Idempotency-Key header) the key is stored on the task in the transaction
 * that creates it: a repeat returns that task, and places its card hold with the same processor key,
 * instead of making a second task and a second hold, even when the first answer was lost to an error
 * after the commit. A task whose card was declined gives its key up, so a retry after fixing the card
 * makes a new task.
 */
export async function create(ctx: TaskCore, viewer: Viewer, input: CreateTaskInput, idempotencyKey: string | null = null): Promise<CreatedTask> {
  const { clock } = ctx.deps;
  if (idempotencyKey !== null) {
    const earlier = await earlierTask(ctx, viewer.id, idempotencyKey);
    if (earlier) return withEarlierHold(ctx, earlier);
  }
  if (input.requirements?.deadline && input.requirements.deadline <= clock.now()) {
    throw invalid('requirements.deadline', 'requirements.deadline must be in the future');
  }
  const inputFiles = await ctx.files.forInput(viewer.id, input.input);
  const chosen = input.agentId ? { routed: await ctx.routing.requested(input.agentId, input) } : await ctx.routing.choose(input);
  const routed = chosen.routed;
  // Kept with a task no agent can take now: why it waits (task-routing-state.ts).
  const waiting = !routed && 'explanation' in chosen ? chosen.explanation : null;
  const createdAt = clock.now();
  const expiresAt = new Date(createdAt.getTime() + Math.round(input.expiresInMinutes * 60_000));
  const row = newTaskRow(viewer, input, { createdAt, expiresAt, routed, waiting, inputHash: inputFiles.hash, idempotencyKey });
  const expiry = queuedJob(expireTask, { taskId: row.id }, { runAt: expiresAt });
  // A task for an agent that asks nothing, with no files to link, is one statement; the rest (a credit
  // to take, a card payment, files, a task that waits for an agent) a transaction.
  const free = routed && inputFiles.files.length === 0 ? freePayment(routed.agent, clock.now()) : null;
  let made: { plan: PaymentPlan | null; task: TaskWithPayment | null };
  try {
    made = free
      ? { plan: { method: 'free', ready: true }, task: await createMatched(ctx, row, free, expiry) }
      : await createInTransaction(ctx, viewer, row, expiry, routed, inputFiles.files);
  } catch (error) {
    // A concurrent request with the same key made the task first.
    if (idempotencyKey === null || !isUniqueViolation(error)) throw error;
    const earlier = await earlierTask(ctx, viewer.id, idempotencyKey);
    if (!earlier) throw error;
    return withEarlierHold(ctx, earlier);
  }
  const { plan, task } = made;
  return withHold(ctx, row.id, plan?.method, plan?.payment ? { payment: plan.payment, requester: viewer } : undefined, task);
}

interface NewTaskFacts {
  createdAt: Date;
  expiresAt: Date;
  routed: Routed | null;
  // Why no agent can take it now, kept with a task that waits.
  waiting: RoutingExplanation | null;
  inputHash: string | null;
  idempotencyKey: string | null;
}

function newTaskRow(viewer: Viewer, input: CreateTaskInput, { createdAt, expiresAt, routed, waiting, inputHash, idempotencyKey }: NewTaskFacts): NewTask {
  return {
    id: newId('tsk'),
    requesterId: viewer.id,
    requestedAgentId: input.agentId,
    title: input.title,
    description: input.description,
    input: input.input === undefined || input.input === null ? undefined : json(input.input as Prisma.InputJsonValue),
    inputHash,
    reviewWindowSeconds: input.reviewWindowSeconds,
    requirements: input.requirements ? json(requirementsJson(input.requirements)!) : undefined,
    capabilities: input.capabilities,
    protocols: input.protocols,
    priority: input.priority,
    maxPriceCents: input.maxPriceCents,
    createdAt,
    expiresAt,
    idempotencyKey,
    ...(routed ? { agentId: routed.agent.id, routingExplanation: json(routed.explanation as unknown as Prisma.InputJsonValue) } : {}),
    ...(waiting ? { routingExplanation: json(waiting as unknown as Prisma.InputJsonValue) } : {}),
  };
}

// A task that takes a credit, a card payment, input files, or waits for an agent: the insert, then the rest
// in the same transaction. Its expiry job rides with the next job the transaction adds (one wake of the
// worker for both, see jobsCall): a waiting task's next routing (with the insert), a paid task's delivery
// or, for a card, the payment's safety net (assign).
function createInTransaction(ctx: TaskCore, viewer: Viewer, row: NewTask, expiry: QueuedJob, routed: Routed | null, files: readonly FileRow[]) {
  const { clock } = ctx.deps;
  return tx(ctx, async (t, afterCommit): Promise<{ plan: PaymentPlan | null; task: TaskWithPayment | null }> => {
    const retry = routed ? [] : [queuedJob(routeTask, { taskId: row.id }, { runAt: new Date(clock.now().getTime() + ROUTE_RETRY_MS) })];
    const inserted = await insertTask(t, row, { now: clock.now(), job: routed ? undefined : jobsCall([expiry, ...retry]) });
    await ctx.files.link(t, row.id, 'input', files);
    if (routed) {
      // A task inserted with its agent is always assigned (nothing to claim).
      const assigned = await assign(ctx, t, afterCommit, inserted, routed, true, viewer, [expiry]);
      if (!assigned) throw new Error('a new task was not assigned its agent');
      return { plan: assigned.plan, task: null };
    }
    await announce(ctx, t, afterCommit, inserted);
    return { plan: null, task: { ...inserted, payment: null } };
  });
}

// The task an earlier request with this key made within the key's 24 hours; one that is older, or whose
// card was declined, gives the key up (see create).
async function earlierTask(ctx: TaskCore, requesterId: string, key: string): Promise<Task | null> {
  const { sql: db, clock } = ctx.deps;
  const task = await taskOfIdempotencyKey(db, requesterId, key);
  if (!task) return null;
  const expired = clock.now().getTime() - task.createdAt.getTime() > IDEMPOTENCY_WINDOW_MS;
  if (expired || (task.status === 'failed' && task.error === 'payment_declined')) {
    await dropIdempotencyKey(db, task.id, key, clock.now());
    return null;
  }
  return task;
}

// A card-paid task's hold is placed after the commit: no network call inside a transaction. A job
// queued with the task does the same (same processor idempotency key) if this process dies first.
// `task`: the task with its payment as written, which answers the request when no hold changed the
// payment since; otherwise the caller reads it once, with what it needs (schema/tasks.ts).
async function withHold(ctx: TaskCore, taskId: string, method: string | undefined, known?: KnownHold, task: TaskWithPayment | null = null): Promise<CreatedTask> {
  if (method !== 'card') return { taskId, authorization: null, task };
  return { taskId, authorization: await ctx.payments().authorizeCard(taskId, known), task: null };
}

// A task made by an earlier request: its payment method is read back, since that request's plan is gone.
async function withEarlierHold(ctx: TaskCore, task: Task): Promise<CreatedTask> {
  const payment = await paymentOfTask(ctx.deps.sql, task.id);
  return withHold(ctx, task.id, payment?.method);
}
