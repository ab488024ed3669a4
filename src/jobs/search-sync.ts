// Carries an agent change to the search index. Enqueued in the transaction of the change, so the index
// update is as durable as the change itself; while the engine is unreachable the job fails and is retried
// with backoff (graphile-worker: up to 25 attempts, about three days). The handler reads the agent as it
// is when the job runs, so jobs that run late or out of order still leave the index current.
import { z } from 'zod';
import type { Db } from '../db/client.js';
import { defineJob } from './job.js';
import { enqueueJob } from './queue.js';

export const SEARCH_SYNC_JOB = 'search.sync';

export function enqueueSearchSync(tx: Db, agentId: string): Promise<void> {
  // One pending sync per agent is enough: it reads the latest state when it runs.
  return enqueueJob(tx, searchSync, { agentId }, { jobKey: `search.sync:${agentId}` });
}

export const searchSync = defineJob({
  name: SEARCH_SYNC_JOB,
  payload: z.object({ agentId: z.string() }),
  async run(services, { agentId }) {
    await services.discovery.syncIndex(agentId);
  },
});
