// Follows an agent's change: the places that depend on agent data (search index, routing of waiting
// tasks, trust) hook in here.
import { z } from 'zod';
import { defineJob } from '../spec.js';

export const agentChanged = defineJob({
  name: 'agent.changed',
  payload: z.object({ agentId: z.string() }),
  subject: (p) => p.agentId,
});
