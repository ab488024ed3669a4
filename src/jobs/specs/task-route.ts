// Tries again to match a task that is waiting for an agent.
import { z } from 'zod';
import { defineJob } from '../spec.js';

export const routeTask = defineJob({
  name: 'task.route',
  payload: z.object({ taskId: z.string() }),
  subject: (p) => p.taskId,
});
