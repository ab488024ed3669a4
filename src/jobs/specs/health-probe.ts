// Probes one agent's manifest (or endpoint) and records the outcome as health evidence. Queued by the
// health sweep; a probe that cannot run is not retried, the next sweep queues a fresh one.
import { z } from 'zod';
import { defineJob, JobPriority } from '../spec.js';

export const healthProbe = defineJob({
  name: 'health.probe',
  payload: z.object({ agentId: z.string() }),
  priority: JobPriority.background,
  maxAttempts: 1,
  subject: (p) => p.agentId,
});
