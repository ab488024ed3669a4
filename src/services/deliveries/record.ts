// The record of an attempt (a webhook's, an A2A call's or a pull lease's end): the attempt's row, the
// delivery's release (done, given up, or a retry at its time), the task's move, and the hooks' health
// evidence and endpoint state, in one transaction, or in one statement for a quiet success.
import { withTransaction } from '../../db/transaction.js';
import { judgeAttempt } from '../../delivery/attempt-verdict.js';
import { nextRetryDelayMs } from '../../delivery/backoff.js';
import type { WebhookResult } from '../../delivery/http-client.js';
import { newId } from '../../ids.js';
import { deliverTask } from '../../jobs/specs/task-deliver.js';
import { canMove } from '../../lifecycle/task-lifecycle.js';
import { recordLeaseEnd } from '../../stores/delivery-lease-store.js';
import * as store from '../../stores/delivery-store.js';
import { jobCall } from '../../stores/job-store.js';
import type { Claimed, DeliveryCore, RecordedAttempt } from './context.js';

// A lease was ended meanwhile by someone else (another process's settlement, a give-back): the
// transaction that would have recorded it again is rolled back.
class LeaseAlreadyEnded extends Error {}

// `failure`: the exchange was answered but the call failed all the same (an A2A error), and whether a
// retry could change that.
export async function record(ctx: DeliveryCore, claimed: Claimed, result: WebhookResult, failure?: { error: string; final: boolean }): Promise<void> {
  const { deps, tasks, hooks } = ctx;
  const { config, logger, metrics, clock } = deps;
  const { deliveryId, number, taskId, agentId, expiresAt } = claimed;
  const verdict = judgeAttempt(result);
  const ok = !failure && verdict.taken;
  const gone = (!verdict.taken && verdict.gone) || failure?.final === true;
  const { recorded, release } = decide();
  const attempt = (): store.AttemptRecord => ({
    id: newId('att'),
    deliveryId,
    number,
    statusCode: result.kind === 'response' && !claimed.lease ? result.status : null,
    latencyMs: Math.round(result.latencyMs),
    // The service's clock: recovery windows and retention go by it.
    at: clock.now(),
    error: ok ? null : result.kind === 'response' && failure ? failure.error.slice(0, 500) : verdict.taken ? null : verdict.error,
  });
  let outcome: RecordedAttempt['outcome'];
  try {
    outcome = (ok && !claimed.lease && (await recordQuietSuccess(ctx, claimed, attempt()))) || (await recordInTransaction());
  } catch (error) {
    if (error instanceof LeaseAlreadyEnded) return;
    throw error;
  }
  metrics.deliveries.inc({ outcome });
  metrics.deliveryDuration.observe(result.latencyMs / 1000);
  if (outcome !== 'delivered') {
    // The endpoint is the owner's; the status or error says why without the payload or its token.
    const why = result.kind === 'response' ? { statusCode: result.status } : { error: result.error.slice(0, 200) };
    logger.warn({ deliveryId, taskId, agentId, outcome, ...why }, outcome === 'given_up' ? 'delivery given up; the task fails' : 'delivery attempt failed');
  }

  // The task's move comes first in the attempt's transaction: the task's row is locked before the
  // agent's (the lock order of services/payments/moves.ts). A success moves it to in_progress; a delivery given
  // up fails it in the same transaction, so no crash can leave it matched with its delivery over.
  function recordInTransaction() {
    return withTransaction(
      deps.sql,
      async (t, afterCommit) => {
        if (ok && (!claimed.task || canMove('delivered', claimed.task.status))) await tasks.markDeliveredIn(t, afterCommit, taskId, claimed.task);
        if (recorded === 'given_up') await tasks.markUndeliverableIn(t, afterCommit, taskId);
        const retryJob = recorded === 'retrying' ? jobCall(deliverTask, { deliveryId }, { runAt: release.nextAttemptAt! }) : undefined;
        if (!claimed.lease) await store.recordAttempt(t, attempt(), release, retryJob);
        else if (!(await recordLeaseEnd(t, attempt(), claimed.lease.holder, release, retryJob))) throw new LeaseAlreadyEnded();
        if (!claimed.lease?.givenBack) await hooks.deliveryOutcome(t, agentId, ok);
        await hooks.deliveryRecorded(t, { agentId, deliveryId, taskId, number, outcome: recorded, ...(claimed.lease ? { pulled: true } : {}) });
        return recorded;
      },
      (error) => logger.warn({ err: error }, 'after-commit work failed'),
    );
  }
  // Where the delivery goes from this attempt: done, given up, or a retry at its time.
  function decide(): { recorded: RecordedAttempt['outcome']; release: store.DeliveryRelease } {
    if (ok) return { recorded: 'delivered', release: { status: 'succeeded', nextAttemptAt: null } };
    const delay = claimed.lease?.givenBack ? 0 : nextRetryDelayMs(number + 1, {
      schedule: deps.retrySchedule,
      retryAfterMs: verdict.taken ? null : verdict.retryAfterMs,
    });
    const nextAt = new Date(clock.now().getTime() + delay);
    if (gone || number >= config.deliveryMaxAttempts || nextAt >= expiresAt) return { recorded: 'given_up', release: { status: 'failed', nextAttemptAt: null } };
    return { recorded: 'retrying', release: { status: null, nextAttemptAt: nextAt } };
  }
}

/**
 * A delivered first attempt that moves its matched task to in_progress and changes nothing on the
 * agent (its health and endpoint state stay as they are, no operational event): the attempt, the
 * delivery's release and the task's move in one statement, when the agent's row still reads so and the
 * task is still matched. Null when that is not the case: nothing was written.
 */
async function recordQuietSuccess(ctx: DeliveryCore, claimed: Claimed, attempt: store.AttemptRecord): Promise<'delivered' | null> {
  if (!claimed.task || !canMove('delivered', claimed.task.status) || !claimed.agent) return null;
  const unchanged = ctx.hooks.deliveredWritesNothing(claimed.agent, claimed.number, attempt.at);
  if (!unchanged) return null;
  const move = ctx.tasks.deliveredMove(claimed.taskId, claimed.task);
  if (!move) return null;
  const moved = await store.recordDelivered(ctx.deps.sql, attempt, move.write, { id: claimed.agentId, ...unchanged });
  if (!moved) return null;
  await move.announce(moved);
  return 'delivered';
}
