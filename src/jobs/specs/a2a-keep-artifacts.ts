// Keeps the file parts of an A2A agent's artifacts as the task's result files, then completes the task
// with them (services/a2a-deliveries/keep-artifacts.ts). The downloads run here, never in the request or delivery that
// brought the agent's report, so a slow or hostile artifact url holds no request open. Each part is kept
// once whichever job or report gets to it first (files: unique task and artifact part).
import { z } from 'zod';
import { defineJob } from '../spec.js';

export const keepArtifacts = defineJob({
  name: 'a2a.keep-artifacts',
  payload: z.object({ taskId: z.string() }),
  maxAttempts: 8,
  subject: (p) => p.taskId,
});
