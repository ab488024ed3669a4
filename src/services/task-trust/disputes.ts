// Disputes: the agent's owner refunds a rejected result or contests it, the refund comes by default when
// the owner does not answer, and an operator settles what is contested.
import { AppError, conflict, notFound } from '../../errors.js';
import type { Task } from '../../generated/prisma/client.js';
import { enqueue } from '../../stores/job-store.js';
import { disputeTimeout } from '../../jobs/specs/task-dispute-timeout.js';
import { findTask, openDisputes } from '../../stores/task-store.js';
import type { Viewer } from '../accounts/index.js';
import { transition } from '../task-states.js';
import { unlessOvertaken, type TrustContext } from './context.js';

function contested() {
  return conflict('the dispute is contested; an operator settles it', { status: 'disputed', contested: true });
}

// A refund or contest that lost to a contest made at the same moment: say so rather than a bare 409.
async function contestedMeanwhile({ deps }: TrustContext, error: unknown, id: string): Promise<AppError | null> {
  if (!(error instanceof AppError && error.code === 'CONFLICT')) return null;
  const now = await findTask(deps.sql, id);
  return now?.status === 'disputed' && now.disputeContestedAt ? contested() : null;
}

// The agent's owner gives in: the hold is released or the credit given back.
export async function refund(ctx: TrustContext, viewer: Viewer, id: string): Promise<Task> {
  const { deps, core } = ctx;
  const task = await core.loadForAgentOwner(viewer, id);
  if (task.status === 'disputed' && task.disputeContestedAt) throw contested();
  return core.tx((t, afterCommit) =>
    core.finish(t, afterCommit, id, 'refund', { now: deps.clock.now(), current: task, where: { disputeContestedAt: null }, by: { kind: 'agent_owner', id: viewer.id } }),
  ).catch(async (error) => {
    throw (await contestedMeanwhile(ctx, error, id)) ?? error;
  });
}

// The agent's owner stands by the result; an operator will settle the dispute.
export async function contest(ctx: TrustContext, viewer: Viewer, id: string, statement: string): Promise<Task> {
  const { deps, core } = ctx;
  const task = await core.loadForAgentOwner(viewer, id);
  if (task.status === 'disputed' && task.disputeContestedAt) throw conflict('the dispute is already contested', { status: task.status });
  return core.tx(async (t, afterCommit) => {
    const now = deps.clock.now();
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
    throw (await contestedMeanwhile(ctx, error, id)) ?? error;
  });
}

// Job: the owner did not answer the dispute in time; it refunds by default.
export async function disputeTimedOut({ deps, core }: TrustContext, taskId: string): Promise<void> {
  const { clock } = deps;
  const task = await findTask(deps.sql, taskId);
  if (!task || task.status !== 'disputed' || task.disputeContestedAt || !task.disputeAnswerBy) return;
  if (task.disputeAnswerBy > clock.now()) {
    await enqueue(deps.sql, disputeTimeout, { taskId }, { runAt: task.disputeAnswerBy });
    return;
  }
  await unlessOvertaken(
    core.tx((t, afterCommit) =>
      core.finish(t, afterCommit, taskId, 'refund', {
        now: clock.now(),
        where: { disputeContestedAt: null },
        by: { kind: 'system', note: 'the agent owner did not answer the dispute in time' },
      }),
    ),
  );
}

// CLI (operators): the open disputes, contested first.
export async function listDisputes({ deps }: TrustContext) {
  return openDisputes(deps.sql);
}

// CLI (operators): settles a dispute, contested or not.
export async function resolveDispute({ deps, core }: TrustContext, taskId: string, outcome: 'refund' | 'pay', note: string): Promise<Task> {
  const { clock } = deps;
  const task = await findTask(deps.sql, taskId);
  if (!task) throw notFound('task');
  return core.tx((t, afterCommit) =>
    outcome === 'refund'
      ? core.finish(t, afterCommit, taskId, 'resolve_refund', { now: clock.now(), by: { kind: 'operator', note } })
      : core.finish(t, afterCommit, taskId, 'resolve_pay', { now: clock.now(), data: { approvedBy: 'operator' }, by: { kind: 'operator', note } }),
  );
}
