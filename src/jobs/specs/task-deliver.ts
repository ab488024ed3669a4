// Delivers a task to its agent (one attempt of one delivery; the delivery records its attempts).
import { z } from 'zod';
import { defineJob } from '../spec.js';

export const deliverTask = defineJob({
  name: 'task.deliver',
  payload: z.object({ deliveryId: z.string() }),
  subject: (p) => p.deliveryId,
});
