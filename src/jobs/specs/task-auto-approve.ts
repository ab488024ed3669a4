// Approves a delivered result whose review window passed without the requester's answer.
import { z } from 'zod';
import { defineJob, JobPriority } from '../spec.js';

export const autoApprove = defineJob({
  name: 'task.auto-approve',
  payload: z.object({ taskId: z.string() }),
  priority: JobPriority.first,
  subject: (p) => p.taskId,
});
