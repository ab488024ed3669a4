// Pull intake: agents without a public endpoint take their tasks by claiming them with a lease (a long poll
// or a held subscription) and answer on the task's callback. Each claim is one attempt of the task's one
// Delivery, recorded, retried and given up as a webhook's (services/deliveries/ lends its record).
import type { Deps } from '../../deps.js';
import type { Viewer } from '../accounts/index.js';
import type { TaskService } from '../tasks/index.js';
import { taskFiles } from '../task-files.js';
import type { PullContext, PullMachinery } from './context.js';
import { claimBounds, claimNow, claimWaiting, pullingAgent, type ClaimedTask } from './claim.js';
import { LEASE_SECONDS, type ClaimOptions } from './limits.js';
import { extend, giveBack } from './lease.js';
import { settle } from './settle.js';
import { claimStream } from './stream.js';

export type { ClaimedTask } from './claim.js';

export function pullDeliveries(deps: Deps, tasks: TaskService, machinery: PullMachinery) {
  const ctx: PullContext = { deps, tasks, files: taskFiles(deps), machinery };
  return {
    /** The long poll: claims now, or waits for work up to waitSeconds. */
    async claim(viewer: Viewer, agentId: string, opts: ClaimOptions, signal?: AbortSignal): Promise<ClaimedTask[]> {
      const agent = await pullingAgent(ctx, viewer, agentId);
      return claimWaiting(ctx, { id: agentId, maxConcurrentTasks: agent.maxConcurrentTasks }, claimBounds(opts), signal);
    },

    /** The held stream: each claimed task in turn, for as long as the subscriber listens. */
    async stream(viewer: Viewer, agentId: string, opts: ClaimOptions): Promise<AsyncIterableIterator<ClaimedTask>> {
      const agent = await pullingAgent(ctx, viewer, agentId);
      return claimStream(ctx, { id: agentId, maxConcurrentTasks: agent.maxConcurrentTasks }, claimBounds(opts), (taskId) => giveBack(ctx, agentId, taskId));
    },

    async extendLease(viewer: Viewer, agentId: string, taskId: string, leaseSeconds: number | null | undefined) {
      await pullingAgent(ctx, viewer, agentId);
      return extend(ctx, agentId, taskId, (leaseSeconds ?? LEASE_SECONDS.default) * 1000);
    },

    async release(viewer: Viewer, agentId: string, taskId: string) {
      await pullingAgent(ctx, viewer, agentId);
      return giveBack(ctx, agentId, taskId);
    },

    // The task.deliver job of a pulling agent's delivery.
    settle: (deliveryId: string) => settle(ctx, deliveryId),

    // One claim without waiting (the benchmark's and tests' probe).
    claimNow: (agent: { id: string; maxConcurrentTasks: number | null }, max: number, leaseMs: number) => claimNow(ctx, agent, max, leaseMs),
  };
}

export type PullDeliveries = ReturnType<typeof pullDeliveries>;
