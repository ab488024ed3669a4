// The moves between a requester and an agent beyond "do it": the agent asks for more input, the requester
// reviews a result before paying, and a rejected result becomes a dispute that the agent's owner refunds
// or contests and an operator settles. Every wait has a durable job for when nobody answers, and none
// outlives a card hold (payments/hold-life.ts), so a payment is always captured or released once.
import type { SqlDb, SqlTx } from '../db/kysely.js';
import type { AfterCommit } from '../db/transaction.js';
import type { Deps } from '../deps.js';
import { Prisma, type Payment, type Task } from '../generated/prisma/client.js';
import { AppError, conflict, invalid, notFound } from '../errors.js';
import { newId } from '../ids.js';
import { enqueueSql, jobCallSql } from '../jobs/enqueue.js';
import { autoApprove } from '../jobs/specs/task-auto-approve.js';
import { deliverTask } from '../jobs/specs/task-deliver.js';
import { disputeTimeout } from '../jobs/specs/task-dispute-timeout.js';
import { expireTask } from '../jobs/specs/task-expire.js';
import { inputTimeout } from '../jobs/specs/task-input-timeout.js';
import { earliest, paymentDeadline } from '../payments/hold-life.js';
import type { Viewer } from './accounts.js';
import { evidenceHash } from './evidence.js';
import type { TaskFiles } from './task-files.js';
import { InputSchemaError, inputSchemaProblem, inputSchemaValidator } from './input-schema.js';
import type { TaskOutcome } from './payments/index.js';
import type { InputRequest } from './task-input.js';
import { json } from '../stores/json.js';
import { findTask } from '../stores/task-store.js';
import { paymentOfTask } from '../stores/payment-store.js';
import { insertDelivery } from '../stores/delivery-store.js';
import { overtaken, transition, type Actor, type MoveName, type TransitionOptions } from './task-states.js';

// A move that ends the task; `payment`: the task's payment as read with it, if it was.
export type FinishOptions = Omit<TransitionOptions, 'now'> & { now?: Date; payment?: Payment | null };

export const MAX_INPUT_ROUNDS = 10;

// What the trust moves need from the task service (services/tasks.ts).
export interface TaskInternals {
  tx<T>(work: (tx: SqlTx, afterCommit: AfterCommit) => Promise<T>): Promise<T>;
  // `work` in the caller's transaction `db`, or in one of its own when `db` is the pool.
  within<T>(db: SqlDb, afterCommit: AfterCommit, work: (tx: SqlTx, afterCommit: AfterCommit) => Promise<T>): Promise<T>;
  announce(t: SqlTx, afterCommit: AfterCommit, task: Task): Promise<void>;
  // `db`: the caller's transaction, or the pool (the move alone when it can be, see tasks.ts).
  finish(db: SqlDb, afterCommit: AfterCommit, taskId: string, move: MoveName, outcome: TaskOutcome, options?: FinishOptions): Promise<Task>;
  loadForAgentOwner(viewer: Viewer, id: string): Promise<Task & { agent: { ownerId: string } | null }>;
  loadForRequester(viewer: Viewer, id: string): Promise<Task>;
  files: TaskFiles;
}

// A job's move that finds the task already moved by someone else has nothing left to do.
async function unlessOvertaken(work: Promise<unknown>): Promise<void> {
  await work.catch(overtaken(undefined));
}

// The input request's schema, checked with the same bounds as an agent's inputSchema. Null without one.
function checkedSchema(schema: Record<string, unknown> | null, field: string): string | null {
  if (schema === null) return null;
  const text = JSON.stringify(schema);
  try {
    inputSchemaValidator(text);
  } catch (error) {
    if (error instanceof InputSchemaError) throw invalid(field, `${field} cannot be used: ${error.message}`);
    throw error;
  }
  return text;
}

export function taskTrust(deps: Deps, core: TaskInternals) {
  const { prisma, clock, config } = deps;
  const secondsFrom = (from: Date, seconds: number) => new Date(from.getTime() + seconds * 1000);

  async function deadlineOf(t: SqlDb, taskId: string): Promise<Date | null> {
    return paymentDeadline(await paymentOfTask(t, taskId));
  }

  // The agent asks the requester for more input. `by` is the agent (task token) or its owner.
  async function askForInput(task: Task, request: InputRequest, by: Actor, schemaField: string): Promise<Task> {
    const schemaText = checkedSchema(request.inputSchema, schemaField);
    if (task.inputRounds >= MAX_INPUT_ROUNDS) {
      throw conflict(`a task may ask for input at most ${MAX_INPUT_ROUNDS} times`, { status: task.status, inputRounds: task.inputRounds });
    }
    return core.tx(async (t, afterCommit) => {
      const now = clock.now();
      const round = task.inputRounds + 1;
      const stored = { message: request.message, ...(schemaText ? { inputSchema: JSON.parse(schemaText) as unknown } : {}) };
      const { task: moved } = await transition(t, task.id, 'request_input', {
        now,
        current: task,
        where: { inputRounds: task.inputRounds },
        data: { inputRequest: json(stored as Prisma.InputJsonValue), inputRequestedAt: now, inputRounds: round },
        by: { ...by, note: request.message, data: { round } },
      });
      const timeoutAt = earliest(secondsFrom(now, config.trust.inputTimeoutSeconds), await deadlineOf(t, task.id));
      await enqueueSql(t, inputTimeout, { taskId: task.id, round }, { runAt: timeoutAt });
      await core.announce(t, afterCommit, moved);
      return moved;
    });
  }

  // The agent's result: final at once, or held for the requester's review when the task has a window.
  // `task.payment`: the task's payment when it was read with the task (not read again to take it).
  // `db`: the caller's transaction, or the pool: a completion with no files to link is then the finishing
  // move's statement alone when it can be (tasks.ts finish), the rest a transaction of its own.
  async function resultGiven(db: SqlDb, afterCommit: AfterCommit, task: Task & { payment?: Payment | null }, result: Record<string, unknown>, by: Actor): Promise<Task> {
    const resultFiles = await core.files.forResult(db, task.id, result);
    const resultHash = resultFiles.hash;
    const data = { result: json(result as Prisma.InputJsonValue), resultHash };
    const complete = (on: SqlDb) => core.finish(on, afterCommit, task.id, 'complete', 'completed', { data, by, current: task, payment: task.payment });
    if (task.reviewWindowSeconds === 0 && resultFiles.files.length === 0) return complete(db);
    return core.within(db, afterCommit, async (t) => {
      await core.files.link(t, task.id, 'result', resultFiles.files);
      if (task.reviewWindowSeconds === 0) return complete(t);
      const now = clock.now();
      const reviewEndsAt = earliest(secondsFrom(now, task.reviewWindowSeconds), await deadlineOf(t, task.id));
      const { task: moved } = await transition(t, task.id, 'deliver_result', { now, current: task, data: { ...data, reviewEndsAt }, by: { ...by, data: { resultHash } } });
      await enqueueSql(t, autoApprove, { taskId: task.id }, { runAt: reviewEndsAt });
      await core.announce(t, afterCommit, moved);
      return moved;
    });
  }

  return {
    resultGiven,

    // The agent (through its task token, see tasks.callback) asks for input.
    askForInputAsAgent: (task: Task, request: InputRequest) =>
      askForInput(task, request, { kind: 'agent', id: task.agentId }, 'inputRequired.inputSchema'),

    // POST /v1/tasks/:id/request-input: the agent's owner asks for input.
    async requestInput(viewer: Viewer, id: string, request: InputRequest): Promise<Task> {
      const task = await core.loadForAgentOwner(viewer, id);
      return askForInput(task, request, { kind: 'agent_owner', id: viewer.id }, 'inputSchema');
    },

    // POST /v1/tasks/:id/input: the requester answers; the agent gets a signed task.input delivery and the
    // expiry moves by the time spent waiting (never past the payment's deadline).
    async provideInput(viewer: Viewer, id: string, input: Record<string, unknown>): Promise<Task> {
      const task = await core.loadForRequester(viewer, id);
      if (task.status !== 'input_required') throw conflict(`cannot provide input to a task that is ${task.status}`, { status: task.status });
      const request = task.inputRequest as { inputSchema?: unknown } | null;
      if (request?.inputSchema !== undefined) {
        const problem = inputSchemaProblem(JSON.stringify(request.inputSchema), input);
        if (problem !== null) throw invalid('input', `input ${problem}`);
      }
      const inputHash = evidenceHash(input);
      return core.tx(async (t, afterCommit) => {
        const now = clock.now();
        const waited = now.getTime() - (task.inputRequestedAt ?? now).getTime();
        const deadline = await deadlineOf(t, id);
        const latest = deadline ? new Date(deadline.getTime() - task.reviewWindowSeconds * 1000) : null;
        const expiresAt = earliest(new Date(task.expiresAt.getTime() + waited), latest);
        const { task: moved } = await transition(t, id, 'provide_input', {
          now,
          current: task,
          where: { inputRounds: task.inputRounds },
          data: { expiresAt, inputRequest: null, inputRequestedAt: null },
          by: { kind: 'requester', id: viewer.id, data: { round: task.inputRounds, input: input as Prisma.InputJsonValue, inputHash } },
        });
        const deliveryId = newId('dlv');
        await insertDelivery(
          t,
          { id: deliveryId, taskId: id, agentId: task.agentId!, type: 'task.input', payload: json({ input, inputHash, round: task.inputRounds } as Prisma.InputJsonValue), now },
          jobCallSql(deliverTask, { deliveryId }),
        );
        await enqueueSql(t, expireTask, { taskId: id }, { runAt: expiresAt });
        await core.announce(t, afterCommit, moved);
        return moved;
      });
    },

    // Job: the input request `round` was not answered in time.
    async inputTimedOut(taskId: string, round: number): Promise<void> {
      const task = await findTask(deps.sql, taskId);
      if (!task || task.status !== 'input_required' || task.inputRounds !== round || !task.inputRequestedAt) return;
      const dueAt = earliest(secondsFrom(task.inputRequestedAt, config.trust.inputTimeoutSeconds), await deadlineOf(deps.sql, taskId));
      if (dueAt > clock.now()) {
        await enqueueSql(deps.sql, inputTimeout, { taskId, round }, { runAt: dueAt });
        return;
      }
      await unlessOvertaken(
        core.tx((t, afterCommit) =>
          core.finish(t, afterCommit, taskId, 'input_timeout', 'cancelled', {
            now: clock.now(),
            where: { inputRounds: round },
            data: { error: 'input_timeout' },
            by: { kind: 'system', note: 'the input request was not answered in time' },
          }),
        ),
      );
    },

    async approve(viewer: Viewer, id: string): Promise<Task> {
      const current = await core.loadForRequester(viewer, id);
      return core.tx((t, afterCommit) =>
        core.finish(t, afterCommit, id, 'approve', 'completed', { now: clock.now(), current, data: { approvedBy: 'requester' }, by: { kind: 'requester', id: viewer.id } }),
      );
    },

    // Job: the review window passed (or the hold is about to lapse) without an answer.
    async autoApprove(taskId: string): Promise<void> {
      const task = await findTask(deps.sql, taskId);
      if (!task || task.status !== 'delivered' || !task.reviewEndsAt) return;
      if (task.reviewEndsAt > clock.now()) {
        await enqueueSql(deps.sql, autoApprove, { taskId }, { runAt: task.reviewEndsAt });
        return;
      }
      await unlessOvertaken(
        core.tx((t, afterCommit) =>
          core.finish(t, afterCommit, taskId, 'approve', 'completed', {
            now: clock.now(),
            data: { approvedBy: 'auto' },
            by: { kind: 'system', note: 'the review window passed without an answer' },
          }),
        ),
      );
    },

    async reject(viewer: Viewer, id: string, reason: string): Promise<Task> {
      const current = await core.loadForRequester(viewer, id);
      return core.tx(async (t, afterCommit) => {
        const now = clock.now();
        const answerBy = earliest(secondsFrom(now, config.trust.disputeAnswerSeconds), await deadlineOf(t, id));
        const { task } = await transition(t, id, 'reject', {
          now,
          current,
          data: { disputeReason: reason, disputeAnswerBy: answerBy },
          by: { kind: 'requester', id: viewer.id, note: reason },
        });
        await enqueueSql(t, disputeTimeout, { taskId: id }, { runAt: answerBy });
        await core.announce(t, afterCommit, task);
        return task;
      });
    },

    // The agent's owner gives in: the hold is released or the credit given back.
    async refund(viewer: Viewer, id: string): Promise<Task> {
      const task = await core.loadForAgentOwner(viewer, id);
      if (task.status === 'disputed' && task.disputeContestedAt) throw contested();
      return core.tx((t, afterCommit) =>
        core.finish(t, afterCommit, id, 'refund', 'refunded', { now: clock.now(), current: task, where: { disputeContestedAt: null }, by: { kind: 'agent_owner', id: viewer.id } }),
      ).catch(async (error) => {
        throw (await contestedMeanwhile(error, id)) ?? error;
      });
    },

    // The agent's owner stands by the result; an operator will settle the dispute.
    async contest(viewer: Viewer, id: string, statement: string): Promise<Task> {
      const task = await core.loadForAgentOwner(viewer, id);
      if (task.status === 'disputed' && task.disputeContestedAt) throw conflict('the dispute is already contested', { status: task.status });
      return core.tx(async (t, afterCommit) => {
        const now = clock.now();
        const { task: moved } = await transition(t, id, 'contest', {
          now,
          current: task,
          where: { disputeContestedAt: null },
          data: { disputeStatement: statement, disputeContestedAt: now },
          by: { kind: 'agent_owner', id: viewer.id, note: statement },
        });
        await core.announce(t, afterCommit, moved);
        return moved;
      }).catch(async (error) => {
        throw (await contestedMeanwhile(error, id)) ?? error;
      });
    },

    // Job: the owner did not answer the dispute in time; it refunds by default.
    async disputeTimedOut(taskId: string): Promise<void> {
      const task = await findTask(deps.sql, taskId);
      if (!task || task.status !== 'disputed' || task.disputeContestedAt || !task.disputeAnswerBy) return;
      if (task.disputeAnswerBy > clock.now()) {
        await enqueueSql(deps.sql, disputeTimeout, { taskId }, { runAt: task.disputeAnswerBy });
        return;
      }
      await unlessOvertaken(
        core.tx((t, afterCommit) =>
          core.finish(t, afterCommit, taskId, 'refund', 'refunded', {
            now: clock.now(),
            where: { disputeContestedAt: null },
            by: { kind: 'system', note: 'the agent owner did not answer the dispute in time' },
          }),
        ),
      );
    },

    // CLI (operators): the open disputes, contested first.
    async listDisputes() {
      return prisma.task.findMany({
        where: { status: 'disputed' },
        orderBy: [{ disputeContestedAt: { sort: 'asc', nulls: 'last' } }, { id: 'asc' }],
        select: { id: true, title: true, requesterId: true, agentId: true, disputeReason: true, disputeStatement: true, disputeContestedAt: true, disputeAnswerBy: true },
        take: 500,
      });
    },

    // CLI (operators): settles a dispute, contested or not.
    async resolveDispute(taskId: string, outcome: 'refund' | 'pay', note: string): Promise<Task> {
      const task = await findTask(deps.sql, taskId);
      if (!task) throw notFound('task');
      return core.tx((t, afterCommit) =>
        outcome === 'refund'
          ? core.finish(t, afterCommit, taskId, 'resolve_refund', 'refunded', { now: clock.now(), by: { kind: 'operator', note } })
          : core.finish(t, afterCommit, taskId, 'resolve_pay', 'completed', { now: clock.now(), data: { approvedBy: 'operator' }, by: { kind: 'operator', note } }),
      );
    },
  };

  function contested() {
    return conflict('the dispute is contested; an operator settles it', { status: 'disputed', contested: true });
  }

  // A refund or contest that lost to a contest made at the same moment: say so rather than a bare 409.
  async function contestedMeanwhile(error: unknown, id: string): Promise<AppError | null> {
    if (!(error instanceof AppError && error.code === 'CONFLICT')) return null;
    const now = await findTask(deps.sql, id);
    return now?.status === 'disputed' && now.disputeContestedAt ? contested() : null;
  }
}

export type TaskTrust = ReturnType<typeof taskTrust>;
