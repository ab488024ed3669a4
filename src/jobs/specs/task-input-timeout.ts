// Cancels a task whose input request went unanswered (INPUT_TIMEOUT_SECONDS, or before its card hold
// would lapse). `round` is the request it was set for: an answered round leaves the job nothing to do.
import { z } from 'zod';
import { defineJob, JobPriority } from '../spec.js';

export const inputTimeout = defineJob({
  name: 'task.input-timeout',
  payload: z.object({ taskId: z.string(), round: z.number().int() }),
  priority: JobPriority.first,
  subject: (p) => `${p.taskId}:${p.round}`,
});
