// What reaches an A2A agent's delivery from elsewhere: the agent's push notifications at the task's
// callback URL, and the end of our task (a cancelled task is cancelled at the agent too).
import type { SqlTx } from '../../db/kysely.js';
import type { RemoteState } from '../../delivery/a2a/remote.js';
import type { Task } from '../../generated/prisma/client.js';
import { linkOf } from '../../stores/a2a-link-store.js';
import { agentById } from '../../stores/agent-store.js';
import { hasA2ALink } from '../../stores/delivery-store.js';
import { findTask, lastMoveActor } from '../../stores/task-store.js';
import { isTerminal } from '../task-states.js';
import { isIssuedToken, tokenMatches } from '../task-token.js';
import { apply } from './apply.js';
import { A2A_CANCEL, schedule, type A2AContext } from './context.js';

// A push notification at the task's callback URL, authenticated by the task token.
// `remote` null: a report that changes no state (an artifact update, a message); only the token is checked.
export async function push(ctx: A2AContext, taskId: string, token: string, remote: RemoteState | null): Promise<boolean> {
  const { deps } = ctx;
  const task = await findTask(deps.sql, taskId);
  const agent = task?.agentId ? await agentById(deps.sql, task.agentId) : null;
  if (!task || !agent) return false;
  // A finished task's token no longer works on the callback, but the agent may still report on it
  // (its last events): recognised by the token the task was delivered with, and changing nothing.
  if (!tokenMatches(token, task.tokenHash) && !isIssuedToken(deps.serverKey, task, token)) return false;
  // Our task is over: what the agent says now is acknowledged and changes nothing, and causes no call
  // back to it (a finished task's token must not be a way to make the service send requests).
  if (isTerminal(task.status)) return true;
  if (!remote) return true;
  const link = await linkOf(deps.sql, taskId);
  // A push about another of the agent's tasks is not about ours.
  if (link && link.remoteTaskId !== remote.remoteTaskId) return true;
  await apply(ctx, taskId, remote, agent);
  return true;
}

// In the transaction that finished a task: a cancelled task of an A2A agent is cancelled there too
// (other endings cost no statement here).
export async function taskFinished(ctx: A2AContext, t: SqlTx, task: Task): Promise<void> {
  if (task.status !== 'cancelled' || !task.agentId) return;
  if (!(await hasA2ALink(t, task.id))) return;
  // Not when the agent itself cancelled it.
  if ((await lastMoveActor(t, task.id)) !== 'agent') await schedule(ctx, t, task, A2A_CANCEL);
}
