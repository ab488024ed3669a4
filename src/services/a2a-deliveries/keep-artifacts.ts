// Job a2a.keep-artifacts: stores the file parts of the saved completion's artifacts (each part once,
// whichever run gets to it first), then completes the task with references to them, or fails it with
// the reason a part could not be kept. A part another run is storing right now makes this run fail, and
// the job comes back to it.
import { completedArtifacts } from '../../stores/a2a-link-store.js';
import { taskWithAgentOwner } from '../../stores/task-store.js';
import { isTerminal } from '../task-states.js';
import { ArtifactFileError, keepArtifactFiles } from './artifact-files.js';
import { ignoreConflict, type A2AContext } from './context.js';

export async function keepArtifacts(ctx: A2AContext, taskId: string): Promise<void> {
  const { deps, tasks, files } = ctx;
  const task = await taskWithAgentOwner(deps.sql, taskId);
  if (!task?.agent || isTerminal(task.status)) return;
  const artifacts = await completedArtifacts(deps.sql, taskId);
  const token = tasks.tokenFor(task);
  if (!artifacts || !token) return;
  const ownerId = task.agent.ownerId;
  let kept: Awaited<ReturnType<typeof keepArtifactFiles>>;
  try {
    kept = await keepArtifactFiles(artifacts, {
      keep: (where, fetchUpload) => files.keepArtifactPart(ownerId, taskId, where, fetchUpload),
      discard: files.discard,
      timeoutMs: deps.config.deliveryTimeoutMs,
      allowPrivate: deps.config.allowPrivateEndpoints,
      resolve: deps.resolveHost,
    });
  } catch (error) {
    if (!(error instanceof ArtifactFileError)) throw error;
    await tasks.callback(taskId, { taskToken: token, error: error.message.slice(0, 10_000) }).catch(ignoreConflict);
    return;
  }
  // A conflict: the task moved on meanwhile (cancelled, expired). Its files are the task's and go with
  // it (the retention sweep); another run's result would have named these same files.
  await tasks.callback(taskId, { taskToken: token, result: { artifacts: kept.artifacts } }).catch(ignoreConflict);
}
