// The safety net for a card hold the creating request did not place (the process died, or the processor
// was down). Payment jobs send the processor the idempotency key task:<id>:<step>, so running one twice
// (jobs run at least once) repeats the same call and never charges twice.
import { z } from 'zod';
import { defineJob } from '../spec.js';

export const authorizePayment = defineJob({
  name: 'payment.authorize',
  payload: z.object({ taskId: z.string().min(1) }),
  subject: (p) => p.taskId,
});
