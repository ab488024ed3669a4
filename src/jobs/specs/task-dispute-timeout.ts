// Refunds a dispute the agent's owner neither refunded nor contested in DISPUTE_ANSWER_SECONDS.
import { z } from 'zod';
import { defineJob, JobPriority } from '../spec.js';

export const disputeTimeout = defineJob({
  name: 'task.dispute-timeout',
  payload: z.object({ taskId: z.string() }),
  priority: JobPriority.first,
  subject: (p) => p.taskId,
});
