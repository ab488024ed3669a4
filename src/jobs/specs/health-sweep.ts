// The periodic health sweep: ages out old health evidence and queues probes of agents nobody has heard
// from lately. It reschedules itself under its one key, so exactly one sweep is ever pending, however
// often it is (re)started: enqueue with jobKeyMode 'preserve_run_at' to start the chain without moving a
// pending sweep, 'replace' to set the next one.
import { z } from 'zod';
import { defineJob } from '../spec.js';

export const healthSweep = defineJob({
  name: 'health.sweep',
  payload: z.object({}),
  maxAttempts: 3,
});
