// Carries an agent change to the search index. Enqueued in the transaction of the change, so the index
// update is as durable as the change itself; while the engine is unreachable the job fails and is retried
// with backoff (up to 25 attempts, about three days). The handler reads the agent as it is when the job
// runs, so one pending sync per agent is enough, and jobs that run late or out of order leave it current.
import { z } from 'zod';
import { defineJob } from '../spec.js';

export const searchSync = defineJob({
  name: 'search.sync',
  payload: z.object({ agentId: z.string() }),
  subject: (p) => p.agentId,
});
