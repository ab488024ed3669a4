// Follows an agent's change: the places that depend on agent data (search index, routing of waiting
// tasks) hook in here.
import { z } from 'zod';
import { defineJob } from './job.js';

export const agentChanged = defineJob({
  name: 'agent.changed',
  payload: z.object({ agentId: z.string() }),
  async run(services, { agentId }) {
    await services.hooks.agentChanged(agentId);
  },
});
