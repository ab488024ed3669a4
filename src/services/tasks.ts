// Tasks: creation with routing and payment, the agent and requester moves, the callback, expiry and
// the re-routing of tasks that found no agent yet.
import type { Deps } from '../deps.js';
import type { SqlTx } from '../db/kysely.js';
import { withTransaction, type AfterCommit } from '../db/transaction.js';
import { Prisma, type Task, type TaskStatus } from '../generated/prisma/client.js';
import {
  assignAgent,
  dropIdempotencyKey,
  findTask,
  insertTask,
  recordWaitingRouting,
  taskOfIdempotencyKey,
  taskWithAgentOwner,
  taskWithPayment,
  waitingTaskIds,
} from '../stores/task-store.js';
import { ownerOfAgent } from '../stores/agent-store.js';
import { paymentOfTask } from '../stores/payment-store.js';
import { json } from '../stores/json.js';
import { AppError, forbidden, invalid, notFound, unauthenticated } from '../errors.js';
import { newId } from '../ids.js';
import { enqueueSql, jobCallSql } from '../jobs/enqueue.js';
import { isUniqueViolation } from '../db/errors.js';
import { IDEMPOTENCY_WINDOW_MS } from './idempotency-window.js';
import { deliverTask } from '../jobs/specs/task-deliver.js';
import { expireTask } from '../jobs/specs/task-expire.js';
import { routeTask } from '../jobs/specs/task-route.js';
import type { Viewer } from './accounts.js';
import type { CardAuthorization, KnownHold, LockedTask, PaymentService, PaymentPlan, TaskOutcome } from './payments/index.js';
import type { RouteCriteria, RoutingExplanation } from './routing.js';
import { requirementsJson, storedRequirements, taskRouting, type Routed } from './task-routing.js';
import type { CreateTaskInput, InputRequest, RouteQuery } from './task-input.js';
import { overtaken, transition, type Actor, type MoveName } from './task-states.js';
import { canMove } from '../lifecycle/task-lifecycle.js';
import { taskTrust, type FinishOptions, type TaskInternals } from './task-trust/index.js';
import { newTokenNonce, taskToken, tokenHash, tokenMatches } from './task-token.js';
import { taskFiles } from './task-files.js';

// How often a task that found no agent is routed again, besides whenever an agent changes.
export const ROUTE_RETRY_MS = 30_000;

// A new task (or the one an earlier request with the same key made) and its card hold, if any.
export interface CreatedTask {
  taskId: string;
  authorization: CardAuthorization | null;
}

export interface TaskHooks {
  // Inside the transaction that finished the task (reputation, statistics).
  taskFinished(tx: SqlTx, task: Task): Promise<void>;
}

export function taskService(deps: Deps, payments: () => PaymentService, hooks: TaskHooks) {
  const { prisma, logger, clock } = deps;

  function tx<T>(work: (tx: SqlTx, afterCommit: AfterCommit) => Promise<T>): Promise<T> {
    return withTransaction(deps.sql, work, (error) => logger.warn({ err: error }, 'after-commit work failed'));
  }

  // An agent's owner never changes, so it is read once per agent and process (a bounded cache).
  const owners = new Map<string, string>();
  async function ownerOf(t: SqlTx, agentId: string): Promise<string | null> {
    const known = owners.get(agentId);
    if (known) return known;
    const ownerId = await ownerOfAgent(t, agentId);
    if (!ownerId) return null;
    if (owners.size >= 10_000) owners.clear();
    owners.set(agentId, ownerId);
    return ownerId;
  }

  // Where the bus has a channel, the hot moves send their event in their own statement (task-states.ts).
  const notify = deps.events.notifyChannel;

  // `sent`: the move's own statement sent the event (notify); it is only counted once committed.
  async function announce(t: SqlTx, afterCommit: AfterCommit, task: Task, sent = false): Promise<void> {
    if (sent) {
      const event = { taskId: task.id, status: task.status, requesterId: task.requesterId, agentOwnerId: null };
      afterCommit(async () => deps.events.sentInTransaction(event));
      return;
    }
    const agentOwnerId = task.agentId ? await ownerOf(t, task.agentId) : null;
    const event = { taskId: task.id, status: task.status, requesterId: task.requesterId, agentOwnerId };
    afterCommit(() => deps.events.publish(event));
  }

  // The task moves to matched: a callback token is made and the delivery is queued, all in `t`.
  async function matchNow(t: SqlTx, afterCommit: AfterCommit, taskId: string, current?: Pick<Task, 'status' | 'startedAt'>): Promise<Task> {
    const nonce = newTokenNonce();
    const deliveryId = newId('dlv');
    const now = clock.now();
    // The move, its delivery and the delivery's job in one statement.
    const { task } = await transition(t, taskId, 'match', {
      now,
      current,
      notify,
      data: { tokenNonce: nonce, tokenHash: tokenHash(taskToken(deps.serverKey, taskId, nonce)) },
      deliveryId,
      jobs: [jobCallSql(deliverTask, { deliveryId })],
    });
    await announce(t, afterCommit, task, notify !== null);
    return task;
  }

  // Assigns the agent, settles how the task is paid, and matches it when it can be delivered now.
  // `fresh`: the task was inserted with its agent in this transaction, so there is nothing to claim and
  // no payment yet; otherwise it waited unrouted and is given the agent now.
  // `requester`: the requester as the request authenticated him, when there is a request.
  async function assign(t: SqlTx, afterCommit: AfterCommit, task: Task, { agent, explanation }: Routed, fresh = false, requester?: Viewer) {
    if (!fresh) {
      if (!(await assignAgent(t, task.id, agent.id, json(explanation as unknown as Prisma.InputJsonValue), clock.now()))) return null;
    }
    const plan = await payments().prepare(t, { ...task, agentId: agent.id }, agent, { fresh, requester });
    if (plan.ready) await matchNow(t, afterCommit, task.id, { status: 'pending', startedAt: null });
    return { plan };
  }

  async function finish(t: SqlTx, afterCommit: AfterCommit, taskId: string, move: MoveName, outcome: TaskOutcome, { payment, ...options }: FinishOptions = {}) {
    const { task, changed } = await transition(t, taskId, move, { now: clock.now(), notify, ...options });
    if (changed) {
      await payments().finalize(t, taskId, outcome, payment);
      await hooks.taskFinished(t, task);
      await announce(t, afterCommit, task, notify !== null);
    }
    return task;
  }

  async function loadForAgentOwner(viewer: Viewer, id: string): Promise<Task & { agent: { ownerId: string } | null }> {
    const task = await taskWithAgentOwner(deps.sql, id);
    if (!task) throw notFound('task');
    if (task.agent?.ownerId !== viewer.id) throw forbidden('only the owner of the assigned agent may do this');
    return task;
  }

  async function loadForRequester(viewer: Viewer, id: string): Promise<Task> {
    const task = await findTask(deps.sql, id);
    if (!task) throw notFound('task');
    if (task.requesterId !== viewer.id) throw forbidden('only the requester may do this');
    return task;
  }

  async function deliveredIn(t: SqlTx, afterCommit: AfterCommit, taskId: string, current?: Pick<Task, 'status' | 'startedAt'>): Promise<void> {
    const by: Actor = { kind: 'system', note: 'the agent accepted the delivery' };
    const { task, changed } = await transition(t, taskId, 'delivered', { now: clock.now(), current, by, notify }).catch(overtaken({ task: null, changed: false }));
    if (changed && task) await announce(t, afterCommit, task, notify !== null);
  }

  const files = taskFiles(deps);
  const trust = taskTrust({ deps, core: { tx, announce, finish, loadForAgentOwner, loadForRequester, files } satisfies TaskInternals });

  const routing = taskRouting(deps);

  function criteriaOf(task: Pick<Task, 'capabilities' | 'protocols' | 'maxPriceCents' | 'requirements' | 'input'>): RouteCriteria & { input: unknown } {
    return {
      capabilities: task.capabilities,
      protocols: task.protocols,
      maxPriceCents: task.maxPriceCents,
      requirements: storedRequirements(task.requirements),
      input: task.input,
    };
  }

  // The task an earlier request with this key made within the key's 24 hours; one that is older, or whose
  // card was declined, gives the key up (see create).
  async function earlierTask(requesterId: string, key: string): Promise<Task | null> {
    const task = await taskOfIdempotencyKey(deps.sql, requesterId, key);
    if (!task) return null;
    const expired = clock.now().getTime() - task.createdAt.getTime() > IDEMPOTENCY_WINDOW_MS;
    if (expired || (task.status === 'failed' && task.error === 'payment_declined')) {
      await dropIdempotencyKey(deps.sql, task.id, key, clock.now());
      return null;
    }
    return task;
  }

  // A card-paid task's hold is placed after the commit: no network call inside a transaction. A job
  // queued with the task does the same (same processor idempotency key) if this process dies first.
  // The task is not read back: the caller reads it once, with what it needs (schema/tasks.ts).
  async function withHold(taskId: string, method: string | undefined, known?: KnownHold): Promise<CreatedTask> {
    if (method !== 'card') return { taskId, authorization: null };
    return { taskId, authorization: await payments().authorizeCard(taskId, known) };
  }

  // A task made by an earlier request: its payment method is read back, since that request's plan is gone.
  async function withEarlierHold(task: Task): Promise<CreatedTask> {
    const payment = await paymentOfTask(deps.sql, task.id);
    return withHold(task.id, payment?.method);
  }

  return {
    /**
     * With `idempotencyKey` (the Idempotency-Key header) the key is stored on the task in the transaction
     * that creates it: a repeat returns that task, and places its card hold with the same processor key,
     * instead of making a second task and a second hold, even when the first answer was lost to an error
     * after the commit. A task whose card was declined gives its key up, so a retry after fixing the card
     * makes a new task.
     */
    async create(viewer: Viewer, input: CreateTaskInput, idempotencyKey: string | null = null): Promise<CreatedTask> {
      if (idempotencyKey !== null) {
        const earlier = await earlierTask(viewer.id, idempotencyKey);
        if (earlier) return withEarlierHold(earlier);
      }
      if (input.requirements?.deadline && input.requirements.deadline <= clock.now()) {
        throw invalid('requirements.deadline', 'requirements.deadline must be in the future');
      }
      const inputFiles = await files.forInput(viewer.id, input.input);
      const chosen = input.agentId ? { routed: await routing.requested(input.agentId, input) } : await routing.choose(input);
      const routed = chosen.routed;
      // Kept with a task no agent can take now: why it waits (task-routing-state.ts).
      const waiting = !routed && 'explanation' in chosen ? chosen.explanation : null;
      const id = newId('tsk');
      const createdAt = clock.now();
      const expiresAt = new Date(createdAt.getTime() + Math.round(input.expiresInMinutes * 60_000));
      let plan: PaymentPlan | null;
      try {
        plan = await tx(async (t, afterCommit) => {
          // The insert and the expiry job: one statement.
          const row = await insertTask(
            t,
            {
              id,
              requesterId: viewer.id,
              requestedAgentId: input.agentId,
              title: input.title,
              description: input.description,
              input: input.input === undefined || input.input === null ? undefined : json(input.input as Prisma.InputJsonValue),
              inputHash: inputFiles.hash,
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
            },
            { now: clock.now(), job: jobCallSql(expireTask, { taskId: id }, { runAt: expiresAt }) },
          );
          await files.link(t, id, 'input', inputFiles.files);
          const assigned = routed ? await assign(t, afterCommit, row, routed, true, viewer) : null;
          if (!assigned) {
            await enqueueSql(t, routeTask, { taskId: id }, { runAt: new Date(clock.now().getTime() + ROUTE_RETRY_MS) });
            await announce(t, afterCommit, row);
          }
          return assigned?.plan ?? null;
        });
      } catch (error) {
        // A concurrent request with the same key made the task first.
        if (idempotencyKey === null || !isUniqueViolation(error)) throw error;
        const earlier = await earlierTask(viewer.id, idempotencyKey);
        if (!earlier) throw error;
        return withEarlierHold(earlier);
      }
      return withHold(id, plan?.method, plan?.payment ? { payment: plan.payment, requester: viewer } : undefined);
    },

    // `query`: the relations the GraphQL selection needs (the payment), read with the row.
    async get(viewer: Viewer, id: string, query: { include?: Prisma.TaskInclude } = {}): Promise<Task> {
      // The owner check needs the agent's ownerId; a query that also asks for the agent keeps its fields.
      const task = await prisma.task.findUnique({ where: { id }, include: { ...query.include, agent: withOwnerId(query.include?.agent) } });
      if (!task) throw notFound('task');
      if (task.requesterId !== viewer.id && task.agent?.ownerId !== viewer.id) throw forbidden('not your task');
      return task;
    },

    async list(viewer: Viewer, opts: { role: 'requester' | 'agent'; status: TaskStatus | null; limit: number; cursor: string | null }) {
      const where: Prisma.TaskWhereInput = {
        ...(opts.role === 'requester' ? { requesterId: viewer.id } : { agent: { ownerId: viewer.id } }),
        ...(opts.status ? { status: opts.status } : {}),
      };
      let cursorId: string | null = null;
      if (opts.cursor) {
        cursorId = Buffer.from(opts.cursor, 'base64url').toString('utf8');
        if (!/^tsk_\w+$/.test(cursorId)) throw invalid('cursor', 'cursor is not valid');
      }
      const rows = await prisma.task.findMany({
        where: cursorId ? { AND: [where, { id: { lt: cursorId } }] } : where,
        // Ids begin with their creation time, so id order is creation order.
        orderBy: { id: 'desc' },
        take: opts.limit + 1,
      });
      const page = rows.slice(0, opts.limit);
      const nextCursor = rows.length > opts.limit ? Buffer.from(page.at(-1)!.id).toString('base64url') : null;
      return { tasks: page, nextCursor };
    },

    async accept(viewer: Viewer, id: string) {
      const current = await loadForAgentOwner(viewer, id);
      return tx(async (t, afterCommit) => {
        const { task, changed } = await transition(t, id, 'accept', { now: clock.now(), current, by: { kind: 'agent_owner', id: viewer.id } });
        if (changed) await announce(t, afterCommit, task);
        return task;
      });
    },

    async start(viewer: Viewer, id: string) {
      const current = await loadForAgentOwner(viewer, id);
      return tx(async (t, afterCommit) => {
        const { task } = await transition(t, id, 'start', { now: clock.now(), current, by: { kind: 'agent_owner', id: viewer.id } });
        await announce(t, afterCommit, task);
        return task;
      });
    },

    // `result` and `error` were checked against task-input.ts's schemas on the way in (schema/tasks.ts).
    async complete(viewer: Viewer, id: string, result: Record<string, unknown>) {
      const task = await loadForAgentOwner(viewer, id);
      return tx((t, afterCommit) => trust.resultGiven(t, afterCommit, task, result, { kind: 'agent_owner', id: viewer.id }));
    },

    async fail(viewer: Viewer, id: string, error: string) {
      const current = await loadForAgentOwner(viewer, id);
      return tx((t, afterCommit) => finish(t, afterCommit, id, 'fail', 'failed', { current, data: { error }, by: { kind: 'agent_owner', id: viewer.id, note: error.slice(0, 500) } }));
    },

    async cancel(viewer: Viewer, id: string) {
      const current = await loadForRequester(viewer, id);
      return tx((t, afterCommit) => finish(t, afterCommit, id, 'cancel', 'cancelled', { current, by: { kind: 'requester', id: viewer.id } }));
    },

    // The agent's answer on the callback URL, authenticated by the task token alone: a result, an error,
    // or a request for more input.
    async callback(id: string, body: { taskToken: string; result?: Record<string, unknown> | null; error?: string | null; inputRequired?: InputRequest | null }) {
      if (!body.taskToken) throw invalid('taskToken', 'taskToken is required');
      const given = (value: unknown) => value !== undefined && value !== null;
      const answers = [given(body.result), given(body.error), given(body.inputRequired)].filter(Boolean).length;
      if (answers !== 1) throw invalid(given(body.result) ? 'error' : 'result', 'send exactly one of result (object), error (string) or inputRequired');
      // With its payment (one statement), which completing it takes.
      const task = await taskWithPayment(deps.sql, id);
      // One answer for an unknown task and a wrong token, so ids cannot be probed with bad tokens.
      if (!task || !tokenMatches(body.taskToken, task.tokenHash)) throw unauthenticated('the task token is not valid for this task');
      const agent: Actor = { kind: 'agent', id: task.agentId };
      if (body.inputRequired) return trust.askForInputAsAgent(task, body.inputRequired);
      return tx((t, afterCommit) =>
        body.result
          ? trust.resultGiven(t, afterCommit, task, body.result, agent)
          : finish(t, afterCommit, id, 'fail', 'failed', { current: task, payment: task.payment, data: { error: body.error! }, by: { ...agent, note: body.error!.slice(0, 500) } }),
      );
    },

    async route(query: RouteQuery) {
      return (await routing.explain(query)).candidates;
    },

    explainRoute: (query: RouteQuery) => routing.explain(query),

    // Payment hook: the card hold was confirmed, so the waiting task can be delivered.
    // `locked`: the task's row as the hold's transaction locked it.
    async matchAfterAuthorization(t: SqlTx, afterCommit: AfterCommit, taskId: string, locked: LockedTask | null): Promise<void> {
      const task = locked ?? (await findTask(t, taskId));
      if (!task || task.status !== 'pending' || !task.agentId) return;
      await matchNow(t, afterCommit, taskId, task);
    },

    // A declined card: the task cannot go ahead.
    async failUnpaid(taskId: string, reason: string) {
      return tx((t, afterCommit) => finish(t, afterCommit, taskId, 'unpaid', 'failed', { data: { error: reason }, by: { kind: 'system', note: reason } }));
    },

    // Job: routes a task that has no agent yet; tries again later while it has not expired.
    async routeWaiting(taskId: string): Promise<void> {
      const task = await findTask(deps.sql, taskId);
      if (!task || task.status !== 'pending' || task.agentId || task.expiresAt <= clock.now()) return;
      const criteria = criteriaOf(task);
      let routed: Routed | null = null;
      let explained: RoutingExplanation | null;
      if (task.requestedAgentId) {
        // A named agent that became inactive, stopped meeting the requirements or whose schema changed
        // since the task was made is waited for.
        routed = await routing.requested(task.requestedAgentId, criteria).catch((error) => {
          if (error instanceof AppError) return null;
          throw error;
        });
        explained = null;
      } else {
        ({ routed, explanation: explained } = await routing.choose(criteria));
      }
      const assigned = await tx(async (t, afterCommit) => {
        const done = routed ? await assign(t, afterCommit, task, routed) : null;
        if (!done) {
          // Why it still waits, as of this try.
          if (!routed && explained) {
            await recordWaitingRouting(t, taskId, json(explained as unknown as Prisma.InputJsonValue), clock.now());
          }
          const runAt = new Date(Math.min(clock.now().getTime() + ROUTE_RETRY_MS, task.expiresAt.getTime()));
          await enqueueSql(t, routeTask, { taskId }, { runAt });
        }
        return done;
      });
      if (assigned?.plan.method === 'card') await payments().authorizeCard(taskId).catch((error) => {
        logger.warn({ err: error, taskId }, 'card authorization for a re-routed task failed');
      });
    },

    // After an agent changed: tasks still waiting for an agent get another chance soon.
    async agentChanged(_agentId: string): Promise<void> {
      const waiting = await waitingTaskIds(deps.sql, clock.now(), 500);
      if (waiting.length === 0) return;
      await deps.sql.transaction().execute(async (t) => {
        for (const id of waiting) await enqueueSql(t, routeTask, { taskId: id });
      });
    },

    // Job: the expiry time passed.
    async expire(taskId: string): Promise<void> {
      const task = await findTask(deps.sql, taskId);
      // Waiting for input, for review or in a dispute, the task has its own clock (task-trust/).
      if (!task || !canMove('expire', task.status)) return;
      if (task.expiresAt > clock.now()) {
        await enqueueSql(deps.sql, expireTask, { taskId }, { runAt: task.expiresAt });
        return;
      }
      // Finished by someone else in the meantime: nothing to expire.
      const expired = await tx((t, afterCommit) => finish(t, afterCommit, taskId, 'expire', 'expired', { by: { kind: 'system', note: 'the expiry time passed' } })).then(
        () => true,
        overtaken(false),
      );
      if (expired) deps.logger.warn({ taskId, agentId: task.agentId, was: task.status }, 'task expired unfinished');
    },

    // Delivery outcomes, used by the delivery job.
    async markDelivered(taskId: string): Promise<void> {
      await tx((t, afterCommit) => deliveredIn(t, afterCommit, taskId));
    },

    // The same in the transaction that records the delivery's attempt; `current`: the task as the
    // delivery read it.
    markDeliveredIn: deliveredIn,

    // An A2A agent cancelled the task on its side (delivery/a2a): it ends cancelled, paid back as a cancel is.
    async cancelledByAgent(taskId: string, note: string): Promise<void> {
      const task = await findTask(deps.sql, taskId);
      await tx((t, afterCommit) => finish(t, afterCommit, taskId, 'cancel', 'cancelled', { by: { kind: 'agent', id: task?.agentId, note } })).catch(overtaken(undefined));
    },

    // Delivery was given up, in the transaction that records the last attempt. A task that moved on
    // meanwhile (the agent answered, the requester cancelled) is left where it is.
    async markUndeliverableIn(t: SqlTx, afterCommit: AfterCommit, taskId: string): Promise<void> {
      await finish(t, afterCommit, taskId, 'undeliverable', 'failed', { data: { error: 'delivery_failed' }, by: { kind: 'system', note: 'delivery was given up' } }).catch(overtaken(undefined));
    },

    requestInput: trust.requestInput,
    provideInput: trust.provideInput,
    inputTimedOut: trust.inputTimedOut,
    approve: trust.approve,
    autoApprove: trust.autoApprove,
    reject: trust.reject,
    refund: trust.refund,
    contest: trust.contest,
    disputeTimedOut: trust.disputeTimedOut,
    listDisputes: trust.listDisputes,
    resolveDispute: trust.resolveDispute,

    callbackUrl: (taskId: string) => `${deps.urls.base}/v1/tasks/${taskId}/callback`,
    tokenFor: (task: Pick<Task, 'id' | 'tokenNonce'>) => (task.tokenNonce ? taskToken(deps.serverKey, task.id, task.tokenNonce) : null),
  };
}

export type TaskService = ReturnType<typeof taskService>;

// The agent as a task query includes it, with its ownerId besides (nothing else when not asked for).
function withOwnerId(agent: Prisma.TaskInclude['agent']): Prisma.TaskInclude['agent'] {
  if (!agent) return { select: { ownerId: true } };
  if (agent === true) return true;
  return agent.select ? { ...agent, select: { ...agent.select, ownerId: true } } : agent;
}
