// Review of a result held for the requester (result.ts): approved or rejected by the requester, or
// approved when the review window passes without an answer.
import type { Task } from '../../generated/prisma/client.js';
import { enqueue } from '../../stores/job-store.js';
import { autoApprove as autoApproveJob } from '../../jobs/specs/task-auto-approve.js';
import { disputeTimeout } from '../../jobs/specs/task-dispute-timeout.js';
import { earliest } from '../../payments/hold-life.js';
import { findTask } from '../../stores/task-store.js';
import type { Viewer } from '../accounts/index.js';
import { transition } from '../task-states.js';
import { deadlineOf, secondsFrom, unlessOvertaken, type TrustContext } from './context.js';

export async function approve({ deps, core }: TrustContext, viewer: Viewer, id: string): Promise<Task> {
  const current = await core.loadForRequester(viewer, id);
  return core.tx((t, afterCommit) =>
    core.finish(t, afterCommit, id, 'approve', { now: deps.clock.now(), current, data: { approvedBy: 'requester' }, by: { kind: 'requester', id: viewer.id } }),
  );
}

// Job: the review window passed (or the hold is about to lapse) without an answer.
export async function autoApprove({ deps, core }: TrustContext, taskId: string): Promise<void> {
  const { clock } = deps;
  const task = await findTask(deps.sql, taskId);
  if (!task || task.status !== 'delivered' || !task.reviewEndsAt) return;
  if (task.reviewEndsAt > clock.now()) {
    await enqueue(deps.sql, autoApproveJob, { taskId }, { runAt: task.reviewEndsAt });
    return;
  }
  await unlessOvertaken(
    core.tx((t, afterCommit) =>
      core.finish(t, afterCommit, taskId, 'approve', {
        now: clock.now(),
        data: { approvedBy: 'auto' },
        by: { kind: 'system', note: 'the review window passed without an answer' },
      }),
    ),
  );
}

// The requester turns the result down: a dispute the agent's owner must answer in time.
export async function reject({ deps, core }: TrustContext, viewer: Viewer, id: string, reason: string): Promise<Task> {
  const { clock, config } = deps;
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
    await enqueue(t, disputeTimeout, { taskId: id }, { runAt: answerBy });
    await core.announce(t, afterCommit, task);
    return task;
  });
}
