// One job kind: its name, the shape of its payload (checked when it runs) and an idempotent handler.
// Jobs run at least once, so a handler must be safe to run again after a crash.
import type { JobHelpers } from 'graphile-worker';
import type { z } from 'zod';
import type { Services } from '../services/index.js';

export interface JobDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  payload: S;
  run(services: Services, payload: z.infer<S>, helpers: JobHelpers): Promise<void>;
}

export function defineJob<S extends z.ZodType>(job: JobDefinition<S>): JobDefinition<S> {
  return job;
}
