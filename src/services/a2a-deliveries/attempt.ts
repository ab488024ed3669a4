// One attempt of a delivery to an A2A agent (the delivery job's branch for such agents): SendMessage for
// task.assigned and task.input, GetTask for a2a.get, CancelTask for a2a.cancel, each claimed and recorded
// as a webhook's attempt is, and the agent's answer applied to our task.
import { A2AError, TaskNotCancelableError, TaskNotFoundError } from '@a2a-js/sdk/errors';
import { a2aClient, type Exchange } from '../../delivery/a2a/client.js';
import { fromMessage, fromTask, type RemoteState } from '../../delivery/a2a/remote.js';
import type { WebhookResult } from '../../delivery/http-client.js';
import type { Agent } from '../../generated/prisma/client.js';
import { deliveryWaitsFor, MOVES, WORKING, type TaskStatus } from '../../lifecycle/task-lifecycle.js';
import { linkOf } from '../../stores/a2a-link-store.js';
import { dropDelivery, removeUnattempted } from '../../stores/delivery-store.js';
import { apply } from './apply.js';
import { A2A_CANCEL, A2A_GET, type A2AAttempt, type A2AContext, type Claimed } from './context.js';
import { sendRequest } from './message.js';

// JSON-RPC errors that a retry cannot fix.
function isPermanent(error: unknown): boolean {
  if (!(error instanceof A2AError)) return false;
  return !['A2AError', 'InternalError'].includes(error.name);
}

const describe = (error: unknown) => (error instanceof A2AError ? `${error.name}: ${error.message}` : error instanceof Error ? error.message : String(error));

function client(ctx: A2AContext, agent: Pick<Agent, 'a2aCard' | 'endpoint'>, exchanges: Exchange[]) {
  const { config, resolveHost } = ctx.deps;
  return a2aClient(agent.a2aCard, agent.endpoint, { timeoutMs: config.deliveryTimeoutMs, allowPrivate: config.allowPrivateEndpoints, resolve: resolveHost, onExchange: (e) => exchanges.push(e) });
}

// The exchange as the webhook's result, for the attempt's record.
function resultOf(exchanges: Exchange[], fallbackError: string | null): WebhookResult {
  const last = exchanges.at(-1);
  if (!last || last.status === null) return { kind: 'error', error: last?.error ?? fallbackError ?? 'no answer', latencyMs: last?.latencyMs ?? 0 };
  return { kind: 'response', status: last.status, retryAfterMs: last.retryAfterMs, latencyMs: last.latencyMs };
}

export async function attempt(ctx: A2AContext, { delivery, task, agent }: A2AAttempt, jobId: string): Promise<void> {
  const { deps, tasks, machinery } = ctx;
  // The lifecycle's wait states, and the two calls of A2A's own: a poll while the agent works on the
  // task, a cancel once the task was cancelled here.
  const waitsFor: readonly TaskStatus[] =
    delivery.type === A2A_GET ? WORKING : delivery.type === A2A_CANCEL ? [MOVES.cancel.to] : [deliveryWaitsFor(delivery.type)];
  if (!waitsFor.includes(task.status)) {
    // A poll the task outgrew asked nothing: it leaves no entry in the log. Other calls are marked failed.
    if (delivery.type === A2A_GET) await removeUnattempted(deps.sql, delivery.id);
    else await dropDelivery(deps.sql, delivery.id);
    return;
  }
  const link = await linkOf(deps.sql, task.id);
  if (delivery.type !== 'task.assigned' && !link) {
    // Nothing to ask about or cancel: the agent never said which task is ours.
    await dropDelivery(deps.sql, delivery.id);
    return;
  }
  const token = tasks.tokenFor(task);
  if (!token) return;
  const number = await machinery.claimAttempt(delivery.id, jobId);
  if (number === null) return machinery.retryLater(delivery.id);
  const claimed: Claimed = { deliveryId: delivery.id, number, taskId: task.id, agentId: agent.id, expiresAt: task.expiresAt };
  const exchanges: Exchange[] = [];
  let remote: RemoteState | null = null;
  let failure: { error: string; final: boolean } | undefined;
  try {
    const a2a = await client(ctx, agent, exchanges);
    if (delivery.type === A2A_CANCEL) {
      remote = fromTask(await a2a.cancelTask({ tenant: '', id: link!.remoteTaskId, metadata: undefined }));
    } else if (delivery.type === A2A_GET) {
      remote = fromTask(await a2a.getTask({ tenant: '', id: link!.remoteTaskId }));
    } else {
      const fileLinks = delivery.type === 'task.assigned' ? await ctx.inputFiles.links(task) : null;
      const reply = await a2a.sendMessage(sendRequest(ctx, task, delivery, agent, link, token, fileLinks));
      remote = 'messageId' in reply ? fromMessage(reply, task.id) : fromTask(reply);
    }
  } catch (error) {
    // A task the agent no longer knows or cannot cancel: there is nothing more to do for this call.
    const settled = delivery.type === A2A_CANCEL && (error instanceof TaskNotCancelableError || error instanceof TaskNotFoundError);
    failure = { error: describe(error).slice(0, 500), final: settled || isPermanent(error) };
  }
  const result = resultOf(exchanges, failure?.error ?? null);
  // The HTTP exchange succeeded but the call did not (a JSON-RPC error, an unreadable answer).
  await machinery.record(claimed, result, failure && result.kind === 'response' ? failure : undefined);
  if (remote) {
    await apply(ctx, task.id, remote, agent).catch((error) => deps.logger.warn({ err: error, taskId: task.id, deliveryId: delivery.id }, 'applying the A2A agent’s answer failed'));
  }
}
