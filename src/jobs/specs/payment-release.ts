// Cancels the PaymentIntent of a task that did not complete. intentId names a hold that was placed after
// the task had already ended (and so was never recorded as the task's hold). The key names the intent
// too: a pending release of a stray hold must not be overwritten by the task's own release (add_job
// replaces a pending job's payload), or that hold would never be cancelled.
import { z } from 'zod';
import { defineJob } from '../spec.js';

export const releasePayment = defineJob({
  name: 'payment.release',
  payload: z.object({ taskId: z.string().min(1), intentId: z.string().min(1).optional() }),
  subject: (p) => (p.intentId ? `${p.taskId}:${p.intentId}` : p.taskId),
});
