// The moves the parties make by request: the agent owner accepts, starts, completes or fails; the agent
// answers on its callback URL; the requester cancels.
import { conflict, invalid, unauthenticated } from '../../errors.js';
import { callbackTask } from '../../stores/task-store.js';
import type { Viewer } from '../accounts/index.js';
import type { InputRequest } from '../task-input.js';
import { transition, type Actor } from '../task-states.js';
import { isIssuedToken, tokenMatches } from '../task-token.js';
import { alone, announce, tx, type TaskContext } from './context.js';
import { finish, finishAnnounced } from './finish.js';
import { loadForAgentOwner, loadForRequester } from './reads.js';

export async function accept(ctx: TaskContext, viewer: Viewer, id: string) {
  const current = await loadForAgentOwner(ctx, viewer, id);
  return tx(ctx, async (t, afterCommit) => {
    const { task, changed } = await transition(t, id, 'accept', { now: ctx.deps.clock.now(), current, by: { kind: 'agent_owner', id: viewer.id } });
    if (changed) await announce(ctx, t, afterCommit, task);
    return task;
  });
}

export async function start(ctx: TaskContext, viewer: Viewer, id: string) {
  const current = await loadForAgentOwner(ctx, viewer, id);
  return tx(ctx, async (t, afterCommit) => {
    const { task } = await transition(t, id, 'start', { now: ctx.deps.clock.now(), current, by: { kind: 'agent_owner', id: viewer.id } });
    await announce(ctx, t, afterCommit, task);
    return task;
  });
}

// `result` and `error` were checked against task-input.ts's schemas on the way in (schema/tasks.ts).
export async function complete(ctx: TaskContext, viewer: Viewer, id: string, result: Record<string, unknown>) {
  const task = await loadForAgentOwner(ctx, viewer, id);
  return alone(ctx, (db, afterCommit) => ctx.trust.resultGiven(db, afterCommit, task, result, { kind: 'agent_owner', id: viewer.id }));
}

export async function fail(ctx: TaskContext, viewer: Viewer, id: string, error: string) {
  const current = await loadForAgentOwner(ctx, viewer, id);
  return tx(ctx, (t, afterCommit) => finish(ctx, t, afterCommit, id, 'fail', { current, data: { error }, by: { kind: 'agent_owner', id: viewer.id, note: error.slice(0, 500) } }));
}

export async function cancel(ctx: TaskContext, viewer: Viewer, id: string) {
  const current = await loadForRequester(ctx, viewer, id);
  return tx(ctx, (t, afterCommit) => finish(ctx, t, afterCommit, id, 'cancel', { current, by: { kind: 'requester', id: viewer.id } }));
}

// The agent's answer on the callback URL, authenticated by the task token alone: a result, an error,
// or a request for more input.
export async function callback(ctx: TaskContext, id: string, body: { taskToken: string; result?: Record<string, unknown> | null; error?: string | null; inputRequired?: InputRequest | null }) {
  if (!body.taskToken) throw invalid('taskToken', 'taskToken is required');
  const given = (value: unknown) => value !== undefined && value !== null;
  const answers = [given(body.result), given(body.error), given(body.inputRequired)].filter(Boolean).length;
  if (answers !== 1) throw invalid(given(body.result) ? 'error' : 'result', 'send exactly one of result (object), error (string) or inputRequired');
  // What the answer needs of the task, with its payment (one statement), which completing it takes.
  const task = await callbackTask(ctx.deps.sql, id);
  if (!task || !tokenMatches(body.taskToken, task.tokenHash)) {
    // A finished task's own token: the answer came too late (or again), which the agent is told as such.
    if (task && isIssuedToken(ctx.deps.serverKey, task, body.taskToken)) {
      throw conflict(`the task is ${task.status}; it takes no more answers`, { status: task.status });
    }
    // One answer for an unknown task and a wrong token, so ids cannot be probed with bad tokens.
    throw unauthenticated('the task token is not valid for this task');
  }
  const agent: Actor = { kind: 'agent', id: task.agentId };
  if (body.inputRequired) return ctx.trust.askForInputAsAgent(task, body.inputRequired);
  // A free or credit-paid task's answer is one statement (see finish.ts), which returns no more of the task
  // than the answer's status needs.
  return alone(ctx, (db, afterCommit) =>
    body.result
      ? ctx.trust.resultAnswered(db, afterCommit, task, body.result, agent)
      : finishAnnounced(ctx, db, afterCommit, id, 'fail', { current: task, payment: task.payment, data: { error: body.error! }, by: { ...agent, note: body.error!.slice(0, 500) } }),
  );
}
