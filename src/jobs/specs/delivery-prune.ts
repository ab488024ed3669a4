// The daily pruning of old delivery attempts (DELIVERY_RETENTION_DAYS). Like the health sweep it
// reschedules itself under its one key: exactly one is ever pending.
import { z } from 'zod';
import { defineJob, JobPriority } from '../spec.js';

export const pruneDeliveries = defineJob({
  name: 'delivery.prune',
  payload: z.object({}),
  priority: JobPriority.background,
  maxAttempts: 3,
});
