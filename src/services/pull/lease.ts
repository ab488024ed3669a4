// A worker's moves on a lease it holds: extend it while it works, or give the task back. Both are made
// by the agent's owner's credential on the live lease of the task (one at a time per task and agent).
import { conflict } from '../../errors.js';
import { jobCall } from '../../stores/job-store.js';
import { deliverTask } from '../../jobs/specs/task-deliver.js';
import { extendLease as extendLeaseRow, heldLease, leaseState } from '../../stores/delivery-lease-store.js';
import type { PullContext } from './context.js';
import { claimedOf } from './settle.js';

const noLease = (taskId: string) =>
  conflict('the agent holds no live lease on this task: it ran out, was given back, or the task was answered or ended', { taskId });

/** Moves the lease's end to `leaseMs` from now; its job moves with it. */
export async function extend(ctx: PullContext, agentId: string, taskId: string, leaseMs: number): Promise<{ taskId: string; lease: { expiresAt: Date } }> {
  const { deps } = ctx;
  const now = deps.clock.now();
  const held = await heldLease(deps.sql, agentId, taskId, now);
  if (!held) throw noLease(taskId);
  const until = new Date(now.getTime() + leaseMs);
  const expiresAt = await extendLeaseRow(deps.sql, { deliveryId: held.deliveryId, holder: held.holder, until, now }, jobCall(deliverTask, { deliveryId: held.deliveryId }, { runAt: until }));
  if (!expiresAt) throw noLease(taskId);
  return { taskId, lease: { expiresAt } };
}

/**
 * Ends the lease at once: an attempt that did not reach the agent's answer, offered again now (to the
 * agent's other workers, or this one later) without waiting out a backoff and without counting against
 * the agent's health. It counts towards the delivery's attempts, so a task given back over and over ends
 * undeliverable like any other.
 */
export async function giveBack(ctx: PullContext, agentId: string, taskId: string): Promise<{ taskId: string; released: boolean }> {
  const { deps } = ctx;
  const held = await heldLease(deps.sql, agentId, taskId, deps.clock.now());
  if (!held) throw noLease(taskId);
  const s = await leaseState(deps.sql, held.deliveryId);
  if (!s) throw noLease(taskId);
  await ctx.machinery.record(claimedOf(s, held.holder, true), { kind: 'error', error: 'given back by the agent', latencyMs: Math.max(0, deps.clock.now().getTime() - (s.startedAt ?? deps.clock.now()).getTime()) });
  await deps.events.publishWork(agentId);
  return { taskId, released: true };
}
