// Looks at the task of one A2A push configuration, pushes it to the client when it changed, and comes
// back later until the task's end has been pushed (services/a2a-pushes.ts).
import { z } from 'zod';
import { defineJob } from '../spec.js';

export const a2aPush = defineJob({
  name: 'a2a.push',
  payload: z.object({ pushId: z.string() }),
  maxAttempts: 10,
  subject: (p) => p.pushId,
});
