// Job task.deliver: one attempt of a delivery. A pulling agent's delivery is settled by the pull intake
// and an A2A agent's is an A2A call; a webhook agent's is POSTed here, signed, with the task's payload.
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { DB } from '../../db/kysely.js';
import { postWebhook } from '../../delivery/http-client.js';
import { buildDeliveryPayload, buildInputDeliveryPayload, deliveryHeaders, serializePayload } from '../../delivery/payload.js';
import { takeDeliverySlot } from '../../delivery/throttle.js';
import { deliverTask } from '../../jobs/specs/task-deliver.js';
import { deliveryWaitsFor } from '../../lifecycle/task-lifecycle.js';
import * as store from '../../stores/delivery-store.js';
import { taskWaitsForDelivery } from '../../stores/delivery-waits.js';
import { enqueue } from '../../stores/job-store.js';
import { speaksA2A } from '../a2a-deliveries/index.js';
import { withFiles } from '../task-files.js';
import { claimAttempt, claimMs, retryLater, type DeliveryContext, type DeliveryCore } from './context.js';
import { record } from './record.js';

// Safe to run again: a finished delivery or task is left alone. `jobId` is the graphile-worker job
// running it: the same job, run again after a crash or an error, may take its claim back; another job
// (a redelivery) may not while the claim holds.
export async function attempt(ctx: DeliveryContext, deliveryId: string, jobId: string): Promise<void> {
  const { deps, agents, tasks, files } = ctx;
  const { config, clock } = deps;
  // The delivery, its task and agent, and the claim when nothing stands in the way: one statement.
  const read = await store.claimAndRead(deps.sql, { deliveryId, jobId, claimMs: claimMs(ctx), now: clock.now() }, sendsAtOnce);
  if (!read || read.delivery.status !== 'pending') return;
  if (read.agent.deliveryMode === 'pull') return ctx.pull.settle(deliveryId);
  if (speaksA2A(read.agent)) return ctx.a2a.attempt(read, jobId);
  const { delivery, task, agent } = read;
  const isInput = delivery.type === 'task.input';
  if (task.status !== deliveryWaitsFor(delivery.type)) {
    // Cancelled, expired, or already answered by the agent: nothing to deliver any more.
    await store.dropDelivery(deps.sql, deliveryId);
    return;
  }
  const token = tasks.tokenFor(task);
  if (!token) return;
  if (agent.deliveryState === 'disabled') {
    // The endpoint is disabled: the delivery waits, without a job, until its owner enables it again.
    await store.parkDelivery(deps.sql, deliveryId);
    return;
  }
  let number = read.number;
  // The read claimed nothing although it could have: another job holds the claim.
  if (number === null && read.sendable) return retryLater(ctx, deliveryId);
  if (number === null) {
    if (agent.maxDeliveriesPerSecond !== null) {
      const nextWindow = await deps.sql.transaction().execute((t) => takeDeliverySlot(t, agent.id, clock.now()));
      if (nextWindow) {
        // Over the agent's rate: waits in the queue for the next window instead of failing.
        await enqueue(deps.sql, deliverTask, { deliveryId }, { runAt: nextWindow });
        return;
      }
    }
    number = await claimAttempt(ctx, deliveryId, jobId);
    if (number === null) return retryLater(ctx, deliveryId);
  }
  const callbackUrl = tasks.callbackUrl(task.id);
  const payload = isInput
    ? await inputAnswerPayload(ctx, task, delivery.payload as { input: unknown; inputHash: string | null; round: number }, token, callbackUrl)
    : withFiles(buildDeliveryPayload(task, token, callbackUrl), await files.links(task));
  const body = serializePayload(payload);
  const headers = deliveryHeaders({
    taskId: task.id,
    event: delivery.type,
    callbackUrl,
    now: clock.now(),
    secret: agents.webhookSecretOf(agent),
    previousSecrets: agents.previousWebhookSecretsOf(agent),
    signingKeys: agents.signingKeysOf(agent),
    deliveryId,
    body,
  });
  const result = await postWebhook({ url: agent.endpoint, body, headers, timeoutMs: config.deliveryTimeoutMs, allowPrivate: config.allowPrivateEndpoints, resolve: deps.resolveHost });
  await record(ctx, { deliveryId, number, taskId: task.id, agentId: agent.id, expiresAt: task.expiresAt, task, agent }, result);
}

// An attempt the read may claim at once: its task waits for it (the checks of `attempt`, in order) and
// its agent takes webhooks with no rate to keep. The other cases are decided from the row it read.
export function sendsAtOnce(eb: ExpressionBuilder<DB, 'deliveries' | 'tasks' | 'agents'>): Expression<SqlBool> {
  return eb.and([
    taskWaitsForDelivery('deliveries.type', 'tasks.status'),
    eb('tasks.tokenNonce', 'is not', null),
    eb('agents.deliveryState', '<>', 'disabled'),
    eb('agents.maxDeliveriesPerSecond', 'is', null),
    // A2A agents (speaksA2A) are sent to by a2a.attempt, which claims for itself; pulling agents claim.
    eb.not(eb(eb.val('a2a'), '=', eb.fn.any('agents.protocols'))),
    eb('agents.deliveryMode', '=', 'push'),
  ]);
}

// The requester's answer to an input request, with signed links to the task's input files when the
// answer refers to one (links of the task's files, which the answer's were linked to).
async function inputAnswerPayload(
  ctx: DeliveryCore,
  task: Parameters<typeof buildInputDeliveryPayload>[0],
  answer: { input: unknown; inputHash: string | null; round: number },
  token: string,
  callbackUrl: string,
) {
  const links = await ctx.files.links({ id: task.id, expiresAt: task.expiresAt, input: answer.input });
  return withFiles(buildInputDeliveryPayload(task, answer, token, callbackUrl), links);
}
