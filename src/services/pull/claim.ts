// A pulling agent's claim: the leases that are over are settled first, then up to `max` deliveries are
// claimed in one statement (stores/delivery-lease-store.ts claimDeliveries). A long poll waits for work on
// the event bus (a match, a retry come due, a task given back: LISTEN/NOTIFY with a PostgreSQL server), not
// by asking the database again on a timer.
import { buildDeliveryPayload, buildInputDeliveryPayload, type DeliveryPayload, type InputDeliveryPayload } from '../../delivery/payload.js';
import { conflict, forbidden, notFound } from '../../errors.js';
import { rowJobCallSql } from '../../stores/job-store.js';
import { deliverTask } from '../../jobs/specs/task-deliver.js';
import { claimDeliveries, leasesToSettle, lockAgentForClaims, pullAgent, type ClaimedRow } from '../../stores/delivery-lease-store.js';
import type { Viewer } from '../accounts/index.js';
import { withFiles } from '../task-files.js';
import type { PullContext } from './context.js';
import { CLAIM_MAX, LEASE_SECONDS, WAIT_SECONDS, type ClaimOptions } from './limits.js';
import { settle } from './settle.js';

// One claimed delivery, as the agent is given it: the webhook's payload (a task, or the requester's answer
// to an input request) and its lease.
export type ClaimedTask = (DeliveryPayload | InputDeliveryPayload) & { lease: { expiresAt: string } };

// Leases settled per claim at most: a claim stays quick even after many ran out at once (the jobs settle
// the rest).
const SETTLE_PER_CLAIM = 20;

/** The agent's owner asks, for an agent that pulls: else 404, 403 or 409. */
export async function pullingAgent(ctx: PullContext, viewer: Viewer, agentId: string) {
  const agent = await pullAgent(ctx.deps.sql, agentId);
  if (!agent) throw notFound('agent');
  if (agent.ownerId !== viewer.id) throw forbidden('you do not own this agent');
  if (agent.deliveryMode !== 'pull') {
    throw conflict('the agent takes its tasks at its endpoint (deliveryMode "push"); set deliveryMode to "pull" to claim them', { deliveryMode: agent.deliveryMode });
  }
  return agent;
}

async function payloadOf(ctx: PullContext, row: ClaimedRow): Promise<ClaimedTask | null> {
  const token = ctx.tasks.tokenFor({ id: row.task.id, tokenNonce: row.task.tokenNonce });
  if (!token) return null;
  const callbackUrl = ctx.tasks.callbackUrl(row.task.id);
  const lease = { expiresAt: row.leaseExpiresAt.toISOString() };
  if (row.type === 'task.input') {
    const answer = row.payload as { input: unknown; inputHash: string | null; round: number };
    const links = await ctx.files.links({ id: row.task.id, expiresAt: row.task.expiresAt, input: answer.input });
    return { ...withFiles(buildInputDeliveryPayload(row.task, answer, token, callbackUrl), links), lease };
  }
  return { ...withFiles(buildDeliveryPayload(row.task, token, callbackUrl), await ctx.files.links(row.task)), lease };
}

/** One claim now, without waiting. */
export async function claimNow(ctx: PullContext, agent: { id: string; maxConcurrentTasks: number | null }, max: number, leaseMs: number): Promise<ClaimedTask[]> {
  const { deps } = ctx;
  for (const id of await leasesToSettle(deps.sql, agent.id, deps.clock.now(), SETTLE_PER_CLAIM)) await settle(ctx, id);
  const request = { agentId: agent.id, max, leaseMs, now: deps.clock.now() };
  const leaseJob = (row: Parameters<Parameters<typeof claimDeliveries>[2]>[0]) => rowJobCallSql(deliverTask, 'deliveryId', row.deliveryId, row.runAt);
  const rows =
    agent.maxConcurrentTasks === null
      ? await claimDeliveries(deps.sql, request, leaseJob)
      : await deps.sql.transaction().execute(async (t) => {
          await lockAgentForClaims(t, agent.id);
          return claimDeliveries(t, request, leaseJob);
        });
  if (rows.length > 0) deps.metrics.deliveries.inc({ outcome: 'claimed' }, rows.length);
  const claimed = await Promise.all(rows.map((row) => payloadOf(ctx, row)));
  return claimed.filter((c): c is ClaimedTask => c !== null);
}

export function claimBounds(opts: ClaimOptions) {
  return {
    max: opts.max ?? CLAIM_MAX.default,
    waitMs: (opts.waitSeconds ?? WAIT_SECONDS.default) * 1000,
    leaseMs: (opts.leaseSeconds ?? LEASE_SECONDS.default) * 1000,
  };
}

/**
 * Claims at once when there is work, else waits up to `waitMs` (real time) for the bus to announce some
 * and claims again; an empty list when the wait ends. `signal`: the caller went away; nothing more is
 * claimed after it aborts.
 */
export async function claimWaiting(
  ctx: PullContext,
  agent: { id: string; maxConcurrentTasks: number | null },
  bounds: { max: number; waitMs: number; leaseMs: number },
  signal?: AbortSignal,
): Promise<ClaimedTask[]> {
  const listening = new AbortController();
  const stop = signal ? AbortSignal.any([signal, listening.signal]) : listening.signal;
  // Listen first, then claim: work announced in between is heard instead of lost.
  const news = ctx.deps.events.subscribe({ agentId: agent.id }, stop)[Symbol.asyncIterator]();
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, bounds.waitMs);
    stop.addEventListener('abort', () => resolve(), { once: true });
  });
  try {
    for (;;) {
      if (stop.aborted) return [];
      const claimed = await claimNow(ctx, agent, bounds.max, bounds.leaseMs);
      if (claimed.length > 0) return claimed;
      const woke = await Promise.race([news.next().then((step) => !step.done), waited.then(() => false)]);
      if (!woke) return [];
    }
  } finally {
    clearTimeout(timer);
    listening.abort();
  }
}
