// Pays the agent's owner their share of a captured task.
import { z } from 'zod';
import { defineJob } from '../spec.js';

export const transferPayment = defineJob({
  name: 'payment.transfer',
  payload: z.object({ taskId: z.string().min(1) }),
  subject: (p) => p.taskId,
});
