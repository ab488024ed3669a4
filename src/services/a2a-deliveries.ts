// Delivery to agents that speak A2A (protocols include a2a, made from a card). Each call to the agent is
// one attempt of a Delivery, with the webhook's claim, retries, timeouts, log and redelivery
// (services/deliveries.ts): task.assigned sends SendMessage with messageId = our task id (a retried send
// is the same message), the task's title and description as text and its input as data, and a push
// configuration pointing at the task's callback URL with the task token; task.input sends the requester's
// answer as a new message with the agent's taskId; the task's input files go as url parts (signed links
// that expire with the task, with name and media type), and file parts of the agent's artifacts are kept
// as the task's result files (artifact-files.ts); a2a.get polls GetTask with backoff when the card has
// no push support; a2a.cancel sends CancelTask once our task is cancelled. What the agent answers, pushes
// or reports on GetTask moves our task through the task service (as its callback would).
import { Role, type Message, type Part, type SendMessageRequest } from '@a2a-js/sdk';
import { A2AError, TaskNotCancelableError, TaskNotFoundError } from '@a2a-js/sdk/errors';
import type { Deps } from '../deps.js';
import type { SqlDb, SqlTx } from '../db/kysely.js';
import type { Agent, Delivery, Prisma, Task } from '../generated/prisma/client.js';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import { jobCall } from '../stores/job-store.js';
import { deliveriesOfType, dropDelivery, hasA2ALink, insertDelivery, removeUnattempted } from '../stores/delivery-store.js';
import { completedArtifacts, countPoll, linkOf, saveCompletedArtifacts, saveLink } from '../stores/a2a-link-store.js';
import { findTask, lastMoveActor, taskWithAgentOwner } from '../stores/task-store.js';
import { agentById } from '../stores/agent-store.js';
import { deliverTask } from '../jobs/specs/task-deliver.js';
import { keepArtifacts as keepArtifactsJob } from '../jobs/specs/a2a-keep-artifacts.js';
import { isIssuedToken, tokenMatches } from './task-token.js';
import { isTerminal } from './task-states.js';
import { canMove, deliveryWaitsFor, MOVES, WORKING, type TaskStatus } from '../lifecycle/task-lifecycle.js';
import type { TaskService } from './tasks/index.js';
import type { FileService } from './files/index.js';
import { taskFiles } from './task-files.js';
import type { DeliveredFile } from '../delivery/payload.js';
import { ArtifactFileError, hasFileParts, keepArtifactFiles } from './a2a-artifact-files.js';
import type { WebhookResult } from '../delivery/http-client.js';
import { a2aClient, type Exchange } from '../delivery/a2a/client.js';
import { fromMessage, fromTask, isFinal, isWorking, needsInput, type RemoteState } from '../delivery/a2a/remote.js';
import { TaskState } from '@a2a-js/sdk';

export const A2A_GET = 'a2a.get';
export const A2A_CANCEL = 'a2a.cancel';

// GetTask rounds wait 2 s, 4 s, 8 s … up to 5 minutes.
const POLL_FIRST_MS = 2_000;
const POLL_MAX_MS = 5 * 60_000;

export interface Claimed {
  deliveryId: string;
  number: number;
  taskId: string;
  agentId: string;
  expiresAt: Date;
}

// What services/deliveries.ts lends this module: its claim and its record of an attempt (retries,
// give-up, health evidence, delivered/undeliverable moves).
export interface DeliveryMachinery {
  claimAttempt(deliveryId: string, jobId: string): Promise<number | null>;
  record(claimed: Claimed, result: WebhookResult, failure?: { error: string; final: boolean }): Promise<void>;
  retryLater(deliveryId: string): Promise<void>;
}

// What one attempt needs of its delivery, task and agent (as services/deliveries.ts read them).
type SentTask = Pick<Task, 'id' | 'status' | 'title' | 'description' | 'input' | 'expiresAt' | 'priority' | 'tokenNonce'>;
export interface A2AAttempt {
  delivery: Pick<Delivery, 'id' | 'type' | 'payload'>;
  task: SentTask;
  agent: Pick<Agent, 'id' | 'endpoint' | 'a2aCard' | 'ownerId'>;
}

export const speaksA2A = (agent: Pick<Agent, 'protocols' | 'a2aCard'>) => agent.protocols.includes('a2a') && agent.a2aCard !== null;

const text = (value: string): Part => ({ content: { $case: 'text', value }, metadata: undefined, filename: '', mediaType: 'text/plain' });
const data = (value: unknown): Part => ({ content: { $case: 'data', value }, metadata: undefined, filename: '', mediaType: 'application/json' });
// An input file as the webhook payload's `files` entry has it: the signed link, and in the metadata the
// id the input's {"$file": …} names, with the size and hash to check the download against.
const filePart = (file: DeliveredFile): Part => ({
  content: { $case: 'url', value: file.url },
  metadata: { fileId: file.id, size: file.size, sha256: file.sha256 },
  filename: file.filename,
  mediaType: file.mediaType,
});

// JSON-RPC errors that a retry cannot fix.
function isPermanent(error: unknown): boolean {
  if (!(error instanceof A2AError)) return false;
  return !['A2AError', 'InternalError'].includes(error.name);
}

// A move the task's state no longer allows (a late or repeated report) is ignored.
const ignoreConflict = (error: unknown) => {
  if (error instanceof AppError && (error.code === 'CONFLICT' || error.code === 'UNAUTHENTICATED')) return null;
  throw error;
};

const describe = (error: unknown) => (error instanceof A2AError ? `${error.name}: ${error.message}` : error instanceof Error ? error.message : String(error));

export function a2aDeliveries(deps: Deps, tasks: TaskService, files: FileService, machinery: DeliveryMachinery) {
  const { config, clock, logger } = deps;
  const inputFiles = taskFiles(deps);

  async function client(agent: Pick<Agent, 'a2aCard' | 'endpoint'>, exchanges: Exchange[]) {
    return a2aClient(agent.a2aCard, agent.endpoint, { timeoutMs: config.deliveryTimeoutMs, allowPrivate: config.allowPrivateEndpoints, onExchange: (e) => exchanges.push(e) });
  }

  const pushSupported = (agent: Pick<Agent, 'a2aCard'>) => (agent.a2aCard as { capabilities?: { pushNotifications?: boolean } }).capabilities?.pushNotifications === true;

  function sendRequest(
    task: SentTask,
    delivery: Pick<Delivery, 'type' | 'payload'>,
    agent: Pick<Agent, 'a2aCard'>,
    link: { remoteTaskId: string; remoteContextId: string } | null,
    token: string,
    fileLinks: DeliveredFile[] | null,
  ): SendMessageRequest {
    const isInput = delivery.type === 'task.input';
    const answer = delivery.payload as { input?: unknown; round?: number } | null;
    const message: Message = {
      // The same id on every retry of this delivery, so the agent can tell a repeat from a new message.
      messageId: isInput ? `${task.id}-input-${answer?.round ?? 0}` : task.id,
      contextId: isInput ? (link?.remoteContextId ?? '') : '',
      taskId: isInput ? (link?.remoteTaskId ?? '') : '',
      role: Role.ROLE_USER,
      parts: isInput
        ? [data(answer?.input ?? {})]
        : [text(`${task.title}\n\n${task.description}`), ...(task.input !== null ? [data(task.input)] : []), ...(fileLinks ?? []).map(filePart)],
      metadata: { marketplaceTaskId: task.id, ...(isInput ? { round: answer?.round ?? 0 } : { expiresAt: task.expiresAt.toISOString(), priority: task.priority }) },
      extensions: [],
      referenceTaskIds: [],
    };
    const push = pushSupported(agent)
      ? { tenant: '', id: task.id, taskId: '', url: tasks.callbackUrl(task.id), token, authentication: { scheme: 'Bearer', credentials: token } }
      : undefined;
    return { tenant: '', message, configuration: { acceptedOutputModes: [], taskPushNotificationConfig: push, returnImmediately: true }, metadata: undefined };
  }

  // The exchange as the webhook's result, for the attempt's record.
  function resultOf(exchanges: Exchange[], fallbackError: string | null): WebhookResult {
    const last = exchanges.at(-1);
    if (!last || last.status === null) return { kind: 'error', error: last?.error ?? fallbackError ?? 'no answer', latencyMs: last?.latencyMs ?? 0 };
    return { kind: 'response', status: last.status, retryAfterMs: last.retryAfterMs, latencyMs: last.latencyMs };
  }

  async function schedule(t: SqlDb, task: Pick<Task, 'id' | 'agentId'>, type: string, runAt?: Date) {
    const deliveryId = newId('dlv');
    await insertDelivery(t, { id: deliveryId, taskId: task.id, agentId: task.agentId!, type, now: clock.now() }, jobCall(deliverTask, { deliveryId }, runAt ? { runAt } : {}));
  }

  // The next GetTask: now (to read a result a status update announced), after the backoff, or, for an
  // agent that pushes, after the longest wait in case its pushes stop arriving. One at a time: while one
  // is waiting, only a poll for now adds another. A poll that finds the task finished removes itself.
  async function schedulePoll(task: Pick<Task, 'id' | 'agentId'>, when: 'now' | 'backoff' | 'safety') {
    if (when !== 'now' && (await deliveriesOfType(deps.sql, task.id, A2A_GET, true)) > 0) return;
    const polls = await countPoll(deps.sql, task.id, clock.now());
    const backoff = Math.min(POLL_FIRST_MS * 2 ** Math.max((polls ?? 1) - 1, 0), POLL_MAX_MS);
    const delay = when === 'now' ? 0 : when === 'safety' ? POLL_MAX_MS : backoff;
    await schedule(deps.sql, task, A2A_GET, new Date(clock.now().getTime() + delay));
  }

  // Moves our task as the agent's report says. Late or repeated reports are harmless: a move the task's
  // state no longer allows is a conflict, ignored.
  async function apply(taskId: string, remote: RemoteState, agent: Pick<Agent, 'ownerId' | 'a2aCard'>): Promise<void> {
    await saveLink(deps.sql, { taskId, remoteTaskId: remote.remoteTaskId, remoteContextId: remote.remoteContextId }, clock.now());
    const task = await findTask(deps.sql, taskId);
    if (!task) return;
    // Cancelled here while the message was on its way: the agent's task is cancelled too, once (an agent
    // that answers CancelTask with WORKING does not get CancelTask after CancelTask).
    if (task.status === 'cancelled' && !isFinal(remote.state)) {
      if ((await deliveriesOfType(deps.sql, taskId, A2A_CANCEL)) > 0) return;
      return schedule(deps.sql, task, A2A_CANCEL);
    }
    const token = tasks.tokenFor(task);
    if (!token) return;
    if (canMove('delivered', task.status)) await tasks.markDelivered(taskId);
    const s = remote.state;
    if (s === TaskState.TASK_STATE_COMPLETED) {
      // A status update does not carry the artifacts: read the task for them.
      if (remote.artifacts === null) return schedulePoll(task, 'now');
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
      await schedulePoll(task, pushSupported(agent) ? 'safety' : 'backoff');
    }
  }

  // Job a2a.keep-artifacts: stores the file parts of the saved completion's artifacts (each part once,
  // whichever run gets to it first), then completes the task with references to them, or fails it with
  // the reason a part could not be kept. A part another run is storing right now makes this run fail,
  // and the job comes back to it.
  async function keepArtifacts(taskId: string): Promise<void> {
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
        timeoutMs: config.deliveryTimeoutMs,
        allowPrivate: config.allowPrivateEndpoints,
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

  return {
    keepArtifacts,

    // One attempt of a delivery to an A2A agent (the delivery job's branch for such agents).
    async attempt({ delivery, task, agent }: A2AAttempt, jobId: string): Promise<void> {
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
        const a2a = await client(agent, exchanges);
        if (delivery.type === A2A_CANCEL) {
          remote = fromTask(await a2a.cancelTask({ tenant: '', id: link!.remoteTaskId, metadata: undefined }));
        } else if (delivery.type === A2A_GET) {
          remote = fromTask(await a2a.getTask({ tenant: '', id: link!.remoteTaskId }));
        } else {
          const fileLinks = delivery.type === 'task.assigned' ? await inputFiles.links(task) : null;
          const reply = await a2a.sendMessage(sendRequest(task, delivery, agent, link, token, fileLinks));
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
        await apply(task.id, remote, agent).catch((error) => logger.warn({ err: error, taskId: task.id, deliveryId: delivery.id }, 'applying the A2A agent’s answer failed'));
      }
    },

    // A push notification at the task's callback URL, authenticated by the task token.
    // `remote` null: a report that changes no state (an artifact update, a message); only the token is checked.
    async push(taskId: string, token: string, remote: RemoteState | null): Promise<boolean> {
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
      await apply(taskId, remote, agent);
      return true;
    },

    // In the transaction that finished a task: a cancelled task of an A2A agent is cancelled there too
    // (other endings cost no statement here).
    async taskFinished(t: SqlTx, task: Task): Promise<void> {
      if (task.status !== 'cancelled' || !task.agentId) return;
      if (!(await hasA2ALink(t, task.id))) return;
      // Not when the agent itself cancelled it.
      if ((await lastMoveActor(t, task.id)) !== 'agent') await schedule(t, task, A2A_CANCEL);
    },
  };
}

export type A2ADeliveries = ReturnType<typeof a2aDeliveries>;
export type { Prisma };
