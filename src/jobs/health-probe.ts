// Probes one agent's manifest (or endpoint) and records the outcome as health evidence. Queued by the
// health sweep; a probe that cannot run is not retried, the next sweep queues a fresh one.
import { z } from 'zod';
import type { Db } from '../db/client.js';
import { defineJob, JobPriority } from './job.js';

export const HEALTH_PROBE_JOB = 'health.probe';

// Queues probes of up to `limit` active agents with no health evidence since `staleBefore`, longest
// silent first. One SQL statement; the job key keeps one pending probe per agent.
export async function enqueueStaleProbes(db: Db, staleBefore: Date, limit: number): Promise<number> {
  const [row] = await db.$queryRaw<[{ queued: bigint }]>`
    SELECT count(graphile_worker.add_job(
      identifier => ${HEALTH_PROBE_JOB}::text,
      payload => json_build_object('agentId', a.id),
      job_key => 'health.probe:' || a.id,
      max_attempts => 1,
      priority => ${JobPriority.background}::int
    )) AS queued
    FROM (
      SELECT id FROM agents
      WHERE status = 'active' AND (health_checked_at IS NULL OR health_checked_at < ${staleBefore})
      ORDER BY health_checked_at NULLS FIRST, id
      LIMIT ${limit}
    ) a`;
  return Number(row.queued);
}

export const healthProbe = defineJob({
  name: HEALTH_PROBE_JOB,
  payload: z.object({ agentId: z.string() }),
  priority: JobPriority.background,
  async run(services, { agentId }) {
    await services.reputation.probeAgent(agentId);
  },
});
