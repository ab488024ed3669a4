// One job kind: its name, the shape of its payload (checked when it is enqueued and again when it runs),
// the priority its jobs get, and an idempotent handler. Jobs run at least once, so a handler must be safe
// to run again after a crash.
import type { JobHelpers } from 'graphile-worker';
import type { z } from 'zod';
import type { Services } from '../services/index.js';

// graphile-worker runs due jobs with the lower number first. Expiry is bound to a time the requester was
// promised, so it must not wait behind a backlog of deliveries; probes are background work.
export const JobPriority = { first: -10, normal: 0, background: 10 } as const;

// What enqueueing needs to know about a job kind (services import only this much).
export interface JobSpec<S extends z.ZodType = z.ZodType> {
  name: string;
  payload: S;
  priority?: number;
}

export interface JobDefinition<S extends z.ZodType = z.ZodType> extends JobSpec<S> {
  run(services: Services, payload: z.infer<S>, helpers: JobHelpers): Promise<void>;
}

export function defineJob<S extends z.ZodType>(job: JobDefinition<S>): JobDefinition<S> {
  return job;
}
