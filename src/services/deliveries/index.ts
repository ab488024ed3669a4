// Delivering a matched task to its agent's endpoint: one Delivery per match (its id is the
// webhook-id on every attempt), attempts recorded, failures retried on a backoff schedule until the
// task expires, a 410 or the end of the schedule gives up. Agents that speak A2A get their deliveries as
// A2A calls (services/a2a-deliveries/) and agents that pull take them by claims with a lease
// (services/pull/), both through this claim and record.
//
// The rules are plain functions of a DeliveryContext in this folder's modules; this service binds them
// to one context, so callers say `services.deliveries.redeliver(…)`.
import type { Deps } from '../../deps.js';
import { a2aDeliveries } from '../a2a-deliveries/index.js';
import type { AgentService } from '../agents.js';
import type { FileService } from '../files/index.js';
import { pullDeliveries } from '../pull/index.js';
import { taskFiles } from '../task-files.js';
import type { TaskService } from '../tasks/index.js';
import { attempt } from './attempt.js';
import { claimAttempt, ownedAgent, retryLater, type DeliveryContext, type DeliveryCore, type DeliveryHooks } from './context.js';
import { record } from './record.js';
import { redeliver } from './redeliver.js';

export type { AgentCondition, AgentFigures, DeliveryHooks, RecordedAttempt } from './context.js';

export function deliveryService(deps: Deps, agents: AgentService, tasks: TaskService, fileService: FileService, hooks: DeliveryHooks) {
  const core: DeliveryCore = { deps, agents, tasks, files: taskFiles(deps), hooks };
  const onCore = <A extends unknown[], R>(rule: (ctx: DeliveryCore, ...args: A) => R) => (...args: A): R => rule(core, ...args);
  // What the A2A and pull intakes use of this service: its claim, its record of an attempt, its check of the owner.
  const machinery = { claimAttempt: onCore(claimAttempt), record: onCore(record), retryLater: onCore(retryLater), ownedAgent: onCore(ownedAgent) };
  const ctx: DeliveryContext = {
    ...core,
    // Agents that speak A2A get their deliveries as A2A calls, through the same claim, record and retries.
    a2a: a2aDeliveries(deps, tasks, fileService, machinery),
    // Agents that pull take their deliveries by claims with a lease, each claim one attempt of the same record.
    pull: pullDeliveries(deps, tasks, machinery),
  };
  return {
    a2a: ctx.a2a,
    pull: ctx.pull,
    // Job: one attempt of a delivery.
    attempt: (deliveryId: string, jobId: string) => attempt(ctx, deliveryId, jobId),
    // 404 for an unknown agent, 403 for another owner's (the owner's delivery log is read by its GraphQL field).
    checkAgentOwner: machinery.ownedAgent,
    redeliver: onCore(redeliver),
  };
}

export type DeliveryService = ReturnType<typeof deliveryService>;
