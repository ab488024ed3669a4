// The periodic health sweep: ages out old health evidence and queues probes of agents nobody has heard
// from lately. It reschedules itself under one job key, so exactly one sweep is ever pending, however
// often it is (re)started.
import { z } from 'zod';
import type { Db } from '../db/client.js';
import { defineJob } from './job.js';
import { enqueueJob } from './queue.js';

export const HEALTH_SWEEP_JOB = 'health.sweep';

// 'preserve_run_at' (start-up): keep an already pending sweep's time. 'replace' (the sweep itself): set the next one.
export function scheduleHealthSweep(db: Db, runAt: Date, mode: 'preserve_run_at' | 'replace'): Promise<void> {
  return enqueueJob(db, healthSweep, {}, { jobKey: HEALTH_SWEEP_JOB, jobKeyMode: mode, runAt, maxAttempts: 3 });
}

export const healthSweep = defineJob({
  name: HEALTH_SWEEP_JOB,
  payload: z.object({}),
  async run(services) {
    await services.reputation.healthSweep();
  },
});
