// Input requests: the agent (or its owner) asks the requester for more input, the requester answers, or
// the request times out and cancels the task.
import type { Prisma, Task } from '../../generated/prisma/client.js';
import { conflict, invalid } from '../../errors.js';
import { newId } from '../../ids.js';
import { enqueue, jobsCall, queuedJob } from '../../stores/job-store.js';
import { deliverTask } from '../../jobs/specs/task-deliver.js';
import { expireTask } from '../../jobs/specs/task-expire.js';
import { inputTimeout } from '../../jobs/specs/task-input-timeout.js';
import { earliest } from '../../payments/hold-life.js';
import { insertDelivery } from '../../stores/delivery-store.js';
import { json } from '../../stores/json.js';
import { findTask } from '../../stores/task-store.js';
import type { Viewer } from '../accounts/index.js';
import { fileRefsAsIds } from '../task-files.js';
import { InputSchemaError, inputSchemaProblem, inputSchemaValidator } from '../input-schema.js';
import type { InputRequest } from '../task-input.js';
import { transition, type Actor } from '../task-states.js';
import { deadlineOf, secondsFrom, unlessOvertaken, type TrustContext } from './context.js';

export const MAX_INPUT_ROUNDS = 10;

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

// What asking for input reads of the task (the callback reads only these columns).
type AskingTask = Pick<Task, 'id' | 'status' | 'startedAt' | 'agentId' | 'inputRounds'>;

// The agent asks the requester for more input. `by` is the agent (task token) or its owner.
async function askForInput({ deps, core }: TrustContext, task: AskingTask, request: InputRequest, by: Actor, schemaField: string): Promise<Task> {
  const { clock, config } = deps;
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
    await enqueue(t, inputTimeout, { taskId: task.id, round }, { runAt: timeoutAt });
    await core.announce(t, afterCommit, moved);
    return moved;
  });
}

// The agent (through its task token, see tasks.callback) asks for input.
export function askForInputAsAgent(ctx: TrustContext, task: AskingTask, request: InputRequest): Promise<Task> {
  return askForInput(ctx, task, request, { kind: 'agent', id: task.agentId }, 'inputRequired.inputSchema');
}

// POST /v1/tasks/:id/request-input: the agent's owner asks for input.
export async function requestInput(ctx: TrustContext, viewer: Viewer, id: string, request: InputRequest): Promise<Task> {
  const task = await ctx.core.loadForAgentOwner(viewer, id);
  return askForInput(ctx, task, request, { kind: 'agent_owner', id: viewer.id }, 'inputSchema');
}

// POST /v1/tasks/:id/input: the requester answers; the agent gets a signed task.input delivery and the
// expiry moves by the time spent waiting (never past the payment's deadline).
export async function provideInput({ deps, core }: TrustContext, viewer: Viewer, id: string, input: Record<string, unknown>): Promise<Task> {
  const { clock } = deps;
  const task = await core.loadForRequester(viewer, id);
  if (task.status !== 'input_required') throw conflict(`cannot provide input to a task that is ${task.status}`, { status: task.status });
  const request = task.inputRequest as { inputSchema?: unknown } | null;
  if (request?.inputSchema !== undefined) {
    // A file field is a string to the schema (its file's id), as in a new task's input.
    const problem = inputSchemaProblem(JSON.stringify(request.inputSchema), fileRefsAsIds(input));
    if (problem !== null) throw invalid('input', `input ${problem}`);
  }
  // Files the answer refers to ({"$file": id}, the requester's own, not yet used) become the task's input
  // files, delivered with signed links like those of the task itself.
  const answerFiles = await core.files.forInput(viewer.id, input);
  const inputHash = answerFiles.hash;
  return core.tx(async (t, afterCommit) => {
    await core.files.link(t, id, 'input', answerFiles.files);
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
    // The delivery's job and the moved expiry in one add_jobs call with the delivery's insert: one
    // statement and one wake of the worker for both (see jobsCall).
    await insertDelivery(
      t,
      { id: deliveryId, taskId: id, agentId: task.agentId!, type: 'task.input', payload: json({ input, inputHash, round: task.inputRounds } as Prisma.InputJsonValue), now },
      jobsCall([queuedJob(deliverTask, { deliveryId }), queuedJob(expireTask, { taskId: id }, { runAt: expiresAt })]),
    );
    await core.announce(t, afterCommit, moved);
    return moved;
  });
}

// Job: the input request `round` was not answered in time.
export async function inputTimedOut({ deps, core }: TrustContext, taskId: string, round: number): Promise<void> {
  const { clock, config } = deps;
  const task = await findTask(deps.sql, taskId);
  if (!task || task.status !== 'input_required' || task.inputRounds !== round || !task.inputRequestedAt) return;
  const dueAt = earliest(secondsFrom(task.inputRequestedAt, config.trust.inputTimeoutSeconds), await deadlineOf(deps.sql, taskId));
  if (dueAt > clock.now()) {
    await enqueue(deps.sql, inputTimeout, { taskId, round }, { runAt: dueAt });
    return;
  }
  await unlessOvertaken(
    core.tx((t, afterCommit) =>
      core.finish(t, afterCommit, taskId, 'input_timeout', {
        now: clock.now(),
        where: { inputRounds: round },
        data: { error: 'input_timeout' },
        by: { kind: 'system', note: 'the input request was not answered in time' },
      }),
    ),
  );
}
