// Reputation: ratings, health, track record, verification and the trust score built from them. A change
// of a rating, the health or the verification recomputes the trust score and tier in the same
// transaction; a finished task is counted by the agent.figures job (jobs/specs/agent-figures.ts), which
// its transaction queues. When the search engine keeps its own index, a sync is queued with each
// (ratings, tasks and trust are sort keys of discovery).
//
// For the task lifecycle, call inside the transaction that made the change:
//   services.reputation.taskFinished(tx, agentId)          after a task reached a terminal state
//     (or finishedTaskJob(agentId), the same job for the finishing move's own statement)
//   services.reputation.deliveryOutcome(tx, agentId, ok)   after each delivery attempt (ok: 2xx)
import type { Deps } from '../deps.js';
import type { SqlDb } from '../db/kysely.js';
import { conflict, forbidden, invalid, notFound } from '../errors.js';
import { probeUrl } from '../delivery/probe.js';
import type { RawBuilder } from 'kysely';
import { addJob, enqueue, jobCall } from '../stores/job-store.js';
import { rateTaskOnce, taskWithPayment } from '../stores/task-store.js';
import { agentById, ratingOfAgent, setAgentVerified, type AgentRow } from '../stores/agent-store.js';
import { expireHealthEvidence, probeTarget, silentAgentIds } from '../stores/agent-health-store.js';
import { searchSync } from '../jobs/specs/search-sync.js';
import { agentFigures } from '../jobs/specs/agent-figures.js';
import { healthSweep } from '../jobs/specs/health-sweep.js';
import { healthProbe } from '../jobs/specs/health-probe.js';
import { recordHealthOutcome, successLeavesHealth, type HealthChange, type HealthFigures } from '../reputation/health-evidence.js';
import { HEALTH_WINDOW_MS } from '../reputation/health.js';
import { refreshTrust } from '../reputation/refresh-trust.js';
import { refreshRatings, refreshTrackRecord } from '../reputation/track-record.js';
import { dailyOutcomes } from '../reputation/daily.js';
import type { Viewer } from './accounts/index.js';

// How long a finished task's recount waits for more of the agent's tasks to finish: its figures (counts,
// track record, trust) lag by at most this much, plus the queue's wait.
export const FIGURES_DELAY_MS = 1000;

// Probes queued per sweep, at most: a large registry is covered over several sweeps, stalest first.
const PROBES_PER_SWEEP = 1000;

export interface TaskRating {
  taskId: string;
  agentId: string | null;
  rating: number;
  ratedAt: Date;
  // The agent's average after this rating.
  avgRating: number | null;
}

export function reputationService(deps: Deps, search: { keepsIndex: boolean }) {
  const { config, logger, clock } = deps;

  // Trust follows its inputs at once; an engine with its own index hears of the change through a job.
  async function reputationChanged(tx: SqlDb, agentId: string): Promise<void> {
    await refreshTrust(tx, agentId);
    if (search.keepsIndex) await enqueue(tx, searchSync, { agentId });
  }

  /**
   * Recounts the agent's tasks (taskCount, completedCount, failedCount), its recent track record (success
   * rate, p50/p95 time from delivery to completion) and its trust. Idempotent: the agent.figures job.
   */
  async function recountFigures(agentId: string): Promise<void> {
    await deps.sql.transaction().execute(async (tx) => {
      // The recount stores the trust it leads to as well.
      await refreshTrackRecord(tx, agentId);
      if (search.keepsIndex) await enqueue(tx, searchSync, { agentId });
    });
  }

  // A finished task of the agent queues its recount FIGURES_DELAY_MS later, or joins the pending one
  // (keeping its time), so a busy agent is recounted once per batch. The job's call, for the statement of
  // the finishing move (task-states.ts).
  function finishedTaskJob(agentId: string): RawBuilder<unknown> {
    return jobCall(agentFigures, { agentId }, { runAt: new Date(clock.now().getTime() + FIGURES_DELAY_MS), jobKeyMode: 'preserve_run_at', joinWaiting: true });
  }

  // The same in the transaction that finished a task of the agent.
  async function taskFinished(tx: SqlDb, agentId: string | null): Promise<void> {
    if (agentId) await addJob(tx, finishedTaskJob(agentId));
  }

  async function recordHealthEvidence(tx: SqlDb, agentId: string, ok: boolean, now: Date): Promise<HealthChange | null> {
    const change = await recordHealthOutcome(tx, agentId, ok, now);
    if (change && change.before !== change.after) await reputationChanged(tx, agentId);
    return change;
  }

  /** Health evidence from one delivery attempt (ok: the endpoint answered 2xx). Call in a transaction: the agent's row is locked. */
  async function deliveryOutcome(tx: SqlDb, agentId: string, ok: boolean): Promise<void> {
    await recordHealthEvidence(tx, agentId, ok, clock.now());
  }

  const average = (a: Pick<AgentRow, 'ratingSum' | 'ratingCount'>) =>
    a.ratingCount > 0 ? Math.round((a.ratingSum / a.ratingCount) * 100) / 100 : null;

  return {
    recountFigures,
    finishedTaskJob,
    taskFinished,
    deliveryOutcome,

    /**
     * Whether deliveryOutcome writes nothing for a success on the agent whose row read `agent` (its
     * evidence is healthy and fresh): then the condition the row must still meet when the success is
     * recorded without it, else null.
     */
    successLeavesHealth(agent: HealthFigures, now: Date) {
      return successLeavesHealth.row(agent, now) ? successLeavesHealth.rule(now) : null;
    },

    /** Finished tasks per day (UTC) over the last `days` days, today included: public, like taskCount. */
    daily: (agentId: string, days: number) => dailyOutcomes(deps.sql, agentId, clock.now(), days),

    /** The requester rates a completed task, once, 1 to 5. */
    async rateTask(viewer: Viewer, taskId: string, rating: number): Promise<TaskRating> {
      if (!Number.isInteger(rating) || rating < 1 || rating > 5) throw invalid('rating', 'rating must be a whole number from 1 to 5');
      return deps.sql.transaction().execute(async (tx) => {
        const task = await taskWithPayment(tx, taskId);
        if (!task) throw notFound('task');
        if (task.requesterId !== viewer.id) throw forbidden('only the requester of a task can rate it');
        if (task.status !== 'completed') throw conflict(`only a completed task can be rated; this one is ${task.status}`, { status: task.status });
        // Paid: its payment was taken (a free agent's too, at no charge), not released or refunded.
        if (task.payment?.status !== 'captured') {
          throw conflict('only a paid task can be rated', { status: task.status, paymentStatus: task.payment?.status ?? null });
        }
        const ratedAt = clock.now();
        // Conditional on "not rated yet", so two concurrent ratings cannot both count.
        if (!(await rateTaskOnce(tx, taskId, rating, ratedAt))) throw conflict('this task has already been rated');
        let avgRating: number | null = null;
        if (task.agentId) {
          await refreshRatings(tx, task.agentId, config.reputation.ratingMinCount);
          await reputationChanged(tx, task.agentId);
          const agent = await ratingOfAgent(tx, task.agentId);
          avgRating = agent ? average(agent) : null;
        }
        return { taskId, agentId: task.agentId, rating, ratedAt, avgRating };
      });
    },

    /** Marks an agent verified (or not) by an administrator. updatedAt is the owner's and stays. */
    async setVerified(agentId: string, verified: boolean): Promise<AgentRow> {
      await deps.sql.transaction().execute(async (tx) => {
        if (!(await setAgentVerified(tx, agentId, verified, clock.now()))) throw notFound('agent');
        await reputationChanged(tx, agentId);
      });
      // The agent as it is after the commit.
      const agent = await agentById(deps.sql, agentId);
      if (!agent) throw notFound('agent');
      return agent;
    },

    /**
     * Probes the agent's manifestUrl (2xx needed) or, without one, its endpoint (any answer below 500:
     * the endpoint takes POSTs, so 404 or 405 to a GET still shows a live server), and records the outcome.
     */
    async probeAgent(agentId: string): Promise<{ ok: boolean; url: string } | null> {
      const agent = await probeTarget(deps.sql, agentId);
      if (!agent || agent.status !== 'active' || agent.deliveryMode === 'pull') return null;
      const url = agent.manifestUrl ?? agent.endpoint;
      const result = await probeUrl({ url, timeoutMs: config.health.probeTimeoutMs, allowPrivate: config.allowPrivateEndpoints, resolve: deps.resolveHost });
      const ok =
        result.kind === 'response' && (agent.manifestUrl ? result.status >= 200 && result.status < 300 : result.status < 500);
      if (!ok) logger.debug({ agentId, url, result }, 'health probe failed');
      await deps.sql.transaction().execute((tx) => recordHealthEvidence(tx, agentId, ok, clock.now()));
      return { ok, url };
    },

    /** One health sweep: schedules the next, ages out old evidence, queues probes of silent agents. */
    async healthSweep(now = clock.now()): Promise<{ expired: number; probesQueued: number }> {
      const intervalMs = config.health.checkIntervalSeconds * 1000;
      // The next sweep first, so a failure below cannot end the chain.
      await enqueue(deps.sql, healthSweep, {}, { runAt: new Date(now.getTime() + intervalMs), jobKeyMode: 'replace' });
      const expired = await expireHealthEvidence(deps.sql, new Date(now.getTime() - HEALTH_WINDOW_MS));
      for (const agentId of expired) await deps.sql.transaction().execute((tx) => reputationChanged(tx, agentId));
      const silent = config.health.probeEnabled ? await silentAgentIds(deps.sql, new Date(now.getTime() - intervalMs), PROBES_PER_SWEEP) : [];
      // One pending probe per agent (the spec's key): a probe still queued from the last sweep is replaced.
      for (const agentId of silent) await enqueue(deps.sql, healthProbe, { agentId });
      return { expired: expired.length, probesQueued: silent.length };
    },

    /** Called for every agent change (agent.changed job): a new agent gets its starting trust score. */
    async agentChanged(agentId: string): Promise<void> {
      await refreshTrust(deps.sql, agentId);
      // Keeps the sweep chain alive without touching start-up: a no-op while a sweep is pending.
      await enqueue(deps.sql, healthSweep, {}, { runAt: new Date(clock.now().getTime() + config.health.checkIntervalSeconds * 1000), jobKeyMode: 'preserve_run_at' });
    },
  };
}

export type ReputationService = ReturnType<typeof reputationService>;
