// What every delivery function takes first: the dependencies, the agent and task services, the task's
// file links and the hooks; and the claim of an attempt, which the A2A and pull intakes share.
import type { Deps } from '../../deps.js';
import type { SqlTx } from '../../db/kysely.js';
import { forbidden, notFound } from '../../errors.js';
import { deliverTask } from '../../jobs/specs/task-deliver.js';
import { ownerOfAgent } from '../../stores/agent-store.js';
import * as store from '../../stores/delivery-store.js';
import { enqueue } from '../../stores/job-store.js';
import type { A2ADeliveries, Claimed as A2AClaimed } from '../a2a-deliveries/index.js';
import type { Viewer } from '../accounts/index.js';
import type { AgentService } from '../agents.js';
import type { PullDeliveries } from '../pull/index.js';
import type { LeaseClaimed } from '../pull/context.js';
import type { TaskFiles } from '../task-files.js';
import type { TaskService } from '../tasks/index.js';

export interface DeliveryHooks {
  // Delivery evidence for the agent's health, in the transaction that records the attempt.
  deliveryOutcome(tx: SqlTx, agentId: string, ok: boolean): Promise<void>;
  // The attempt's outcome for the delivery, in the same transaction (endpoint state, operational events).
  deliveryRecorded(tx: SqlTx, recorded: RecordedAttempt): Promise<void>;
  // Whether the two above write nothing for a delivered attempt, from the agent's row as the attempt read
  // it: then what that row must still read when the attempt is recorded (as data, so that the statement
  // is compiled once per shape), else null.
  deliveredWritesNothing(agent: AgentFigures, number: number, now: Date): AgentCondition | null;
}

// The agent's figures that the hooks' writes depend on, as the attempt read them.
export type AgentFigures = store.DeliveryToSend['agent'];
export type AgentCondition = Omit<store.QuietAgent, 'id'>;

export interface RecordedAttempt {
  agentId: string;
  deliveryId: string;
  taskId: string;
  number: number;
  outcome: 'delivered' | 'given_up' | 'retrying';
  // A pulling agent's lease ended: its endpoint state (which pings and webhooks keep) is not concerned.
  pulled?: boolean;
}

// An attempt claimed, as its record takes it: an A2A call's or a webhook's (A2A's shape), with the task
// as the attempt read it (a success moves it on from there in the same transaction) and the agent as it
// read it (a success that changes nothing on it writes nothing to it); or a pulling agent's lease ended by
// the record (its holder in attemptJobId; `givenBack`: the agent gave the task back, which offers it again
// at once and says nothing about the agent's health).
export type Claimed = A2AClaimed & Partial<Pick<LeaseClaimed, 'task' | 'lease'>> & { agent?: AgentFigures };

// Everything but the A2A and pull intakes, which are built on top of it (they use its claim and record).
export interface DeliveryCore {
  deps: Deps;
  agents: AgentService;
  tasks: TaskService;
  files: TaskFiles;
  hooks: DeliveryHooks;
}

export interface DeliveryContext extends DeliveryCore {
  a2a: A2ADeliveries;
  pull: PullDeliveries;
}

// How long a claimed attempt keeps others from sending: the request's timeout plus room to record it.
// Only a claim whose holder vanished without its job being released ever runs into this.
const CLAIM_GRACE_MS = 30_000;

export function claimMs(ctx: DeliveryCore): number {
  return ctx.deps.config.deliveryTimeoutMs + CLAIM_GRACE_MS;
}

// Claims the next attempt number for `jobId` in one conditional update, so two jobs never send the
// same delivery at once nor record the same attempt number. Null: another job holds the claim.
export function claimAttempt(ctx: DeliveryCore, deliveryId: string, jobId: string): Promise<number | null> {
  return store.claimAttempt(ctx.deps.sql, deliveryId, jobId, claimMs(ctx), ctx.deps.clock.now());
}

// Another job is sending this delivery right now. Its outcome schedules what follows (its retry
// replaces this job under the delivery's job key); this one comes back when that claim would lapse.
export async function retryLater(ctx: DeliveryCore, deliveryId: string): Promise<void> {
  await enqueue(ctx.deps.sql, deliverTask, { deliveryId }, { runAt: new Date(ctx.deps.clock.now().getTime() + claimMs(ctx)) });
}

// 404 for an unknown agent, 403 for another owner's.
export async function ownedAgent(ctx: DeliveryCore, viewer: Viewer, agentId: string): Promise<void> {
  const ownerId = await ownerOfAgent(ctx.deps.sql, agentId);
  if (!ownerId) throw notFound('agent');
  if (ownerId !== viewer.id) throw forbidden('you do not own this agent');
}
