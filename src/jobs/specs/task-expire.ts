// Ends a task that passed its deadline without a result.
import { z } from 'zod';
import { defineJob, JobPriority } from '../spec.js';

export const expireTask = defineJob({
  name: 'task.expire',
  payload: z.object({ taskId: z.string() }),
  priority: JobPriority.first,
  subject: (p) => p.taskId,
});
