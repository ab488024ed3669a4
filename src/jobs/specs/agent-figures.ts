// Recounts an agent's figures (task counts, track record, trust) after one of its tasks finished. The
// count is a job rather than part of the finishing transaction: writing the agent's row in every task's
// transaction made all tasks of one agent wait for each other on that row. One pending job per agent,
// queued a moment later (FIGURES_DELAY_MS in services/reputation.ts): while it waits, more finished tasks
// join it (preserve_run_at), so a busy agent is recounted once per batch of tasks, not once per task. The
// recount reads the tasks as they are when it runs.
import { z } from 'zod';
import { defineJob } from '../spec.js';

export const agentFigures = defineJob({
  name: 'agent.figures',
  payload: z.object({ agentId: z.string() }),
  subject: (p) => p.agentId,
});
