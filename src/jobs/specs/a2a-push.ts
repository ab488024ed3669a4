// Sends an A2A client the current state of its task (one push configuration; a2a/pushes.ts). Repeated
// changes while one is pending coalesce: the push carries the task as it is when it runs.
import { z } from 'zod';
import { defineJob } from '../spec.js';

export const a2aPush = defineJob({
  name: 'a2a.push',
  payload: z.object({ pushId: z.string() }),
  maxAttempts: 10,
  subject: (p) => p.pushId,
});
