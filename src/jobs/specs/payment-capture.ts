// Captures a completed task's hold, then queues the owner's transfer.
import { z } from 'zod';
import { defineJob } from '../spec.js';

export const capturePayment = defineJob({
  name: 'payment.capture',
  payload: z.object({ taskId: z.string().min(1) }),
  subject: (p) => p.taskId,
});
