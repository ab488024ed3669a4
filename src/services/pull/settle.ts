// Where a pulling agent's delivery goes next, from its row: the task.deliver job runs this at a lease's end
// and when a retry comes due, and a claim runs it for the agent's leases that are over. Safe to run again:
// a lease is ended by one conditional statement (recordLeaseEnd, dropLease), whoever gets there first.
import { enqueue } from '../../stores/job-store.js';
import { deliverTask } from '../../jobs/specs/task-deliver.js';
import { dropDelivery } from '../../stores/delivery-store.js';
import { dropLease, LEASE_PREFIX, leaseState, type LeaseState } from '../../stores/delivery-lease-store.js';
import type { LeaseClaimed, PullContext } from './context.js';

// A task that stopped waiting under a lease because it was withdrawn or ran out of time: no answer of the
// agent's, so the lease ends without an attempt's outcome, as a webhook delivery would be dropped.
const WITHDRAWN: readonly string[] = ['cancelled', 'expired'];

export function claimedOf(s: LeaseState, holder: string, givenBack = false): LeaseClaimed {
  return {
    deliveryId: s.deliveryId,
    number: s.number,
    taskId: s.taskId,
    agentId: s.agentId,
    expiresAt: s.expiresAt,
    task: { status: s.taskStatus, startedAt: s.taskStartedAt },
    lease: { holder, givenBack },
  };
}

export async function settle(ctx: PullContext, deliveryId: string): Promise<void> {
  const { deps, machinery } = ctx;
  const s = await leaseState(deps.sql, deliveryId);
  if (!s || s.status !== 'pending') return;
  const now = deps.clock.now();
  const holder = s.holder?.startsWith(LEASE_PREFIX) ? s.holder : null;
  if (!holder) {
    // Nobody holds it: offered to the agent's waiting claims when its task waits for it.
    if (s.waits) await deps.events.publishWork(s.agentId);
    else await dropDelivery(deps.sql, deliveryId);
    return;
  }
  const heldMs = Math.max(0, now.getTime() - (s.startedAt ?? now).getTime());
  if (!s.waits) {
    if (WITHDRAWN.includes(s.taskStatus)) {
      await dropLease(deps.sql, deliveryId, holder, now);
      return;
    }
    // The task moved on under the lease: the agent (or its owner) answered. The attempt succeeded.
    await machinery.record(claimedOf(s, holder), { kind: 'response', status: 200, retryAfterMs: null, latencyMs: heldMs });
    return;
  }
  if (s.leaseExpiresAt && s.leaseExpiresAt > now) {
    // Not over yet by the service's clock (the job ran early, or the lease was extended): look again then.
    await enqueue(deps.sql, deliverTask, { deliveryId }, { runAt: s.leaseExpiresAt });
    return;
  }
  // The lease ran out without an answer: a failed attempt, retried (offered again) on the webhook's schedule.
  await machinery.record(claimedOf(s, holder), { kind: 'error', error: 'the lease ended without an answer', latencyMs: heldMs });
}
