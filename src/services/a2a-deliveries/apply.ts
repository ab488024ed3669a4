// What the agent answers, pushes or reports on GetTask moves our task through the task service (as its
// callback would); a working agent is polled with GetTask on a backoff (or, when it pushes, rarely).
import { TaskState } from '@a2a-js/sdk';
import type { Agent, Task } from '../../generated/prisma/client.js';
import { isFinal, isWorking, needsInput, type RemoteState } from '../../delivery/a2a/remote.js';
import { keepArtifacts as keepArtifactsJob } from '../../jobs/specs/a2a-keep-artifacts.js';
import { canMove } from '../../lifecycle/task-lifecycle.js';
import { countPoll, saveCompletedArtifacts, saveLink } from '../../stores/a2a-link-store.js';
import { deliveriesOfType } from '../../stores/delivery-store.js';
import { jobCall } from '../../stores/job-store.js';
import { findTask } from '../../stores/task-store.js';
import { hasFileParts } from './artifact-files.js';
import { A2A_CANCEL, A2A_GET, ignoreConflict, pushSupported, schedule, type A2AContext } from './context.js';

// GetTask rounds wait 2 s, 4 s, 8 s … up to 5 minutes.
const POLL_FIRST_MS = 2_000;
const POLL_MAX_MS = 5 * 60_000;

// The next GetTask: now (to read a result a status update announced), after the backoff, or, for an
// agent that pushes, after the longest wait in case its pushes stop arriving. One at a time: while one
// is waiting, only a poll for now adds another. A poll that finds the task finished removes itself.
async function schedulePoll(ctx: A2AContext, task: Pick<Task, 'id' | 'agentId'>, when: 'now' | 'backoff' | 'safety') {
  const { deps } = ctx;
  if (when !== 'now' && (await deliveriesOfType(deps.sql, task.id, A2A_GET, true)) > 0) return;
  const polls = await countPoll(deps.sql, task.id, deps.clock.now());
  const backoff = Math.min(POLL_FIRST_MS * 2 ** Math.max((polls ?? 1) - 1, 0), POLL_MAX_MS);
  const delay = when === 'now' ? 0 : when === 'safety' ? POLL_MAX_MS : backoff;
  await schedule(ctx, deps.sql, task, A2A_GET, new Date(deps.clock.now().getTime() + delay));
}

// Moves our task as the agent's report says. Late or repeated reports are harmless: a move the task's
// state no longer allows is a conflict, ignored.
export async function apply(ctx: A2AContext, taskId: string, remote: RemoteState, agent: Pick<Agent, 'ownerId' | 'a2aCard'>): Promise<void> {
  const { deps, tasks } = ctx;
  await saveLink(deps.sql, { taskId, remoteTaskId: remote.remoteTaskId, remoteContextId: remote.remoteContextId }, deps.clock.now());
  const task = await findTask(deps.sql, taskId);
  if (!task) return;
  // Cancelled here while the message was on its way: the agent's task is cancelled too, once (an agent
  // that answers CancelTask with WORKING does not get CancelTask after CancelTask).
  if (task.status === 'cancelled' && !isFinal(remote.state)) {
    if ((await deliveriesOfType(deps.sql, taskId, A2A_CANCEL)) > 0) return;
    return schedule(ctx, deps.sql, task, A2A_CANCEL);
  }
  const token = tasks.tokenFor(task);
  if (!token) return;
  if (canMove('delivered', task.status)) await tasks.markDelivered(taskId);
  const s = remote.state;
  if (s === TaskState.TASK_STATE_COMPLETED) {
    // A status update does not carry the artifacts: read the task for them.
    if (remote.artifacts === null) return schedulePoll(ctx, task, 'now');
    if (!hasFileParts(remote.artifacts)) {
      await tasks.callback(taskId, { taskToken: token, result: { artifacts: remote.artifacts } }).catch(ignoreConflict);
      return;
    }
    // Files to fetch and store: in the job a2a.keep-artifacts, not here (a push's request, a delivery's
    // attempt). The reply and a push of the same completion both get here; the first one's artifacts
    // are kept, and the job completes the task.
    await saveCompletedArtifacts(deps.sql, taskId, remote.artifacts, jobCall(keepArtifactsJob, { taskId }, { jobKeyMode: 'preserve_run_at' }));
  } else if (s === TaskState.TASK_STATE_CANCELED) {
    await tasks.cancelledByAgent(taskId, (remote.text ?? 'the agent cancelled the task').slice(0, 500));
  } else if (s === TaskState.TASK_STATE_FAILED || s === TaskState.TASK_STATE_REJECTED) {
    const why = remote.text ?? (s === TaskState.TASK_STATE_REJECTED ? 'the agent rejected the task' : 'the agent failed the task');
    await tasks.callback(taskId, { taskToken: token, error: why.slice(0, 10_000) }).catch(ignoreConflict);
  } else if (needsInput(s)) {
    const fresh = await findTask(deps.sql, taskId);
    if (fresh?.status !== 'in_progress') return;
    const message = (remote.text ?? (s === TaskState.TASK_STATE_AUTH_REQUIRED ? 'the agent needs authorization' : 'the agent needs more input')).slice(0, 4000);
    await tasks.callback(taskId, { taskToken: token, inputRequired: { message, inputSchema: null } }).catch(ignoreConflict);
  } else if (isWorking(s)) {
    await schedulePoll(ctx, task, pushSupported(agent) ? 'safety' : 'backoff');
  }
}
