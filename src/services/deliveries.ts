// Delivering a matched task to its agent's endpoint: one Delivery per match (its id is the
// webhook-id on every attempt), attempts recorded, failures retried on a backoff schedule until the
// task expires, a 410 or the end of the schedule gives up.
import type { Deps } from '../deps.js';
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { DB, SqlTx } from '../db/kysely.js';
import { withTransaction } from '../db/transaction.js';
import { nextRetryDelayMs } from '../delivery/backoff.js';
import { takeDeliverySlot } from '../delivery/throttle.js';
import { postWebhook, type WebhookResult } from '../delivery/http-client.js';
import { judgeAttempt } from '../delivery/attempt-verdict.js';
import { buildDeliveryPayload, buildInputDeliveryPayload, deliveryHeaders, serializePayload } from '../delivery/payload.js';
import { conflict, forbidden, notFound } from '../errors.js';
import { newId } from '../ids.js';
import { enqueue, jobCall } from '../stores/job-store.js';
import { deliverTask } from '../jobs/specs/task-deliver.js';
import * as store from '../stores/delivery-store.js';
import { taskWaitsForDelivery } from '../stores/delivery-waits.js';
import { canMove, deliveryWaitsFor } from '../lifecycle/task-lifecycle.js';
import { ownerOfAgent } from '../stores/agent-store.js';
import type { Task } from '../generated/prisma/client.js';
import type { Viewer } from './accounts.js';
import type { AgentService } from './agents.js';
import type { TaskService } from './tasks/index.js';
import { a2aDeliveries, speaksA2A } from './a2a-deliveries/index.js';
import { taskFiles, withFiles } from './task-files.js';
import { pullDeliveries } from './pull/index.js';
import { recordLeaseEnd } from '../stores/delivery-lease-store.js';
import type { FileService } from './files/index.js';

export interface DeliveryHooks {
  // Delivery evidence for the agent's health, in the transaction that records the attempt.
  deliveryOutcome(tx: SqlTx, agentId: string, ok: boolean): Promise<void>;
  // The attempt's outcome for the delivery, in the same transaction (endpoint state, operational events).
  deliveryRecorded(tx: SqlTx, recorded: RecordedAttempt): Promise<void>;
  // Whether the two above write nothing for a delivered attempt, from the agent's row as the attempt read
  // it: then the condition that row must still meet when the attempt is recorded, else null.
  deliveredWritesNothing(agent: AgentFigures, number: number, now: Date): AgentCondition | null;
}

// The agent's figures that the hooks' writes depend on, as the attempt read them.
export type AgentFigures = store.DeliveryToSend['agent'];
export type AgentCondition = (eb: ExpressionBuilder<DB, 'agents'>) => Expression<SqlBool>;

export interface RecordedAttempt {
  agentId: string;
  deliveryId: string;
  taskId: string;
  number: number;
  outcome: 'delivered' | 'given_up' | 'retrying';
  // A pulling agent's lease ended: its endpoint state (which pings and webhooks keep) is not concerned.
  pulled?: boolean;
}

// A lease was ended meanwhile by someone else (another process's settlement, a give-back): the
// transaction that would have recorded it again is rolled back.
class LeaseAlreadyEnded extends Error {}

// How long a claimed attempt keeps others from sending: the request's timeout plus room to record it.
// Only a claim whose holder vanished without its job being released ever runs into this.
const CLAIM_GRACE_MS = 30_000;

export function deliveryService(deps: Deps, agents: AgentService, tasks: TaskService, fileService: FileService, hooks: DeliveryHooks) {
  const { config, logger, metrics, clock } = deps;
  const files = taskFiles(deps);

  async function ownedAgent(viewer: Viewer, agentId: string) {
    const ownerId = await ownerOfAgent(deps.sql, agentId);
    if (!ownerId) throw notFound('agent');
    if (ownerId !== viewer.id) throw forbidden('you do not own this agent');
  }

  // The requester's answer to an input request, with signed links to the task's input files when the
  // answer refers to one (links of the task's files, which the answer's were linked to).
  async function inputAnswerPayload(task: Parameters<typeof buildInputDeliveryPayload>[0], answer: { input: unknown; inputHash: string | null; round: number }, token: string, callbackUrl: string) {
    const links = await files.links({ id: task.id, expiresAt: task.expiresAt, input: answer.input });
    return withFiles(buildInputDeliveryPayload(task, answer, token, callbackUrl), links);
  }

  // Agents that speak A2A get their deliveries as A2A calls, through the same claim, record and retries.
  const a2a = a2aDeliveries(deps, tasks, fileService, { claimAttempt, record, retryLater });
  // Agents that pull take their deliveries by claims with a lease, each claim one attempt of the same record.
  const pull = pullDeliveries(deps, tasks, { record, ownedAgent });

  return {
    a2a,
    pull,

    // Job: one attempt of a delivery. Safe to run again: a finished delivery or task is left alone.
    // `jobId` is the graphile-worker job running it: the same job, run again after a crash or an error,
    // may take its claim back; another job (a redelivery) may not while the claim holds.
    async attempt(deliveryId: string, jobId: string): Promise<void> {
      // The delivery, its task and agent, and the claim when nothing stands in the way: one statement.
      const read = await store.claimAndRead(deps.sql, { deliveryId, jobId, claimMs: claimMs(), now: clock.now() }, sendsAtOnce);
      if (!read || read.delivery.status !== 'pending') return;
      if (read.agent.deliveryMode === 'pull') return pull.settle(deliveryId);
      if (speaksA2A(read.agent)) return a2a.attempt(read, jobId);
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
        await parkDelivery(deliveryId);
        return;
      }
      let number = read.number;
      // The read claimed nothing although it could have: another job holds the claim.
      if (number === null && read.sendable) return retryLater(deliveryId);
      if (number === null) {
        if (agent.maxDeliveriesPerSecond !== null) {
          const nextWindow = await deps.sql.transaction().execute((t) => takeDeliverySlot(t, agent.id, clock.now()));
          if (nextWindow) {
            // Over the agent's rate: waits in the queue for the next window instead of failing.
            await enqueue(deps.sql, deliverTask, { deliveryId }, { runAt: nextWindow });
            return;
          }
        }
        number = await claimAttempt(deliveryId, jobId);
        if (number === null) return retryLater(deliveryId);
      }
      const callbackUrl = tasks.callbackUrl(task.id);
      const payload = isInput
        ? await inputAnswerPayload(task, delivery.payload as { input: unknown; inputHash: string | null; round: number }, token, callbackUrl)
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
      const result = await postWebhook({ url: agent.endpoint, body, headers, timeoutMs: config.deliveryTimeoutMs, allowPrivate: config.allowPrivateEndpoints });
      await record({ deliveryId, number, taskId: task.id, agentId: agent.id, expiresAt: task.expiresAt, task, agent }, result);
    },

    // 404 for an unknown agent, 403 for another owner's (the owner's delivery log is read by its GraphQL field).
    checkAgentOwner: ownedAgent,

    // The owner asks for a still-matched task to be delivered again now.
    async redeliver(viewer: Viewer, agentId: string, deliveryId: string): Promise<void> {
      await ownedAgent(viewer, agentId);
      const delivery = await store.deliveryWithTaskStatus(deps.sql, deliveryId);
      if (!delivery || delivery.agentId !== agentId) throw notFound('delivery');
      // Only while the task still waits for this delivery (the task itself: while it is matched).
      const waitsFor = deliveryWaitsFor(delivery.type);
      if (delivery.taskStatus !== waitsFor) {
        throw conflict(`the task is ${delivery.taskStatus}; this delivery is sent again only while its task is ${waitsFor}`, { status: delivery.taskStatus });
      }
      await store.reopenDelivery(deps.sql, deliveryId, clock.now(), jobCall(deliverTask, { deliveryId }));
    },
  };

  // An attempt the read may claim at once: its task waits for it (the checks of `attempt`, in order) and
  // its agent takes webhooks with no rate to keep. The other cases are decided from the row it read.
  function sendsAtOnce(eb: ExpressionBuilder<DB, 'deliveries' | 'tasks' | 'agents'>): Expression<SqlBool> {
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

  async function parkDelivery(deliveryId: string): Promise<void> {
    await store.parkDelivery(deps.sql, deliveryId);
  }

  // Another job is sending this delivery right now. Its outcome schedules what follows (its retry
  // replaces this job under the delivery's job key); this one comes back when that claim would lapse.
  async function retryLater(deliveryId: string): Promise<void> {
    await enqueue(deps.sql, deliverTask, { deliveryId }, { runAt: new Date(clock.now().getTime() + claimMs()) });
  }

  function claimMs(): number {
    return config.deliveryTimeoutMs + CLAIM_GRACE_MS;
  }

  // Claims the next attempt number for `jobId` in one conditional update, so two jobs never send the
  // same delivery at once nor record the same attempt number. Null: another job holds the claim.
  function claimAttempt(deliveryId: string, jobId: string): Promise<number | null> {
    return store.claimAttempt(deps.sql, deliveryId, jobId, claimMs(), clock.now());
  }

  interface Claimed {
    deliveryId: string;
    number: number;
    taskId: string;
    agentId: string;
    expiresAt: Date;
    // The task as the attempt read it: a success moves it on from there in the same transaction.
    task?: Pick<Task, 'status' | 'startedAt'>;
    // The agent as the attempt read it: a success that changes nothing on it writes nothing to it.
    agent?: AgentFigures;
    // A pulling agent's lease (its holder in attemptJobId), ended by this record; `givenBack`: the agent
    // gave the task back, which offers it again at once and says nothing about the agent's health.
    lease?: { holder: string; givenBack?: boolean };
  }

  // `failure`: the exchange was answered but the call failed all the same (an A2A error), and whether a
  // retry could change that.
  async function record(claimed: Claimed, result: WebhookResult, failure?: { error: string; final: boolean }): Promise<void> {
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
      outcome = (ok && !claimed.lease && (await recordQuietSuccess(claimed, attempt()))) || (await recordInTransaction());
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
  async function recordQuietSuccess(claimed: Claimed, attempt: store.AttemptRecord): Promise<'delivered' | null> {
    if (!claimed.task || !canMove('delivered', claimed.task.status) || !claimed.agent) return null;
    const unchanged = hooks.deliveredWritesNothing(claimed.agent, claimed.number, attempt.at);
    if (!unchanged) return null;
    const move = tasks.deliveredMove(claimed.taskId, claimed.task);
    if (!move) return null;
    const moved = await store.recordDelivered(deps.sql, attempt, move.write, { id: claimed.agentId, unchanged });
    if (!moved) return null;
    await move.announce(moved);
    return 'delivered';
  }
}

export type DeliveryService = ReturnType<typeof deliveryService>;
