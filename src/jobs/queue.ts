// Jobs are rows in graphile-worker's table, added through the caller's transaction: the job exists
// exactly when the write that caused it committed. The payload is checked against the job's schema
// here, so a malformed job fails the write that queued it instead of failing later, unseen, in the worker.
import type { z } from 'zod';
import type { Db } from '../db/client.js';
import type { JobSpec } from './job.js';

export interface EnqueueOptions {
  // At most one pending job per key; a later add replaces the payload and run time of the pending one.
  jobKey?: string;
  // 'preserve_run_at' keeps the earlier run time when the key already has a pending job.
  jobKeyMode?: 'replace' | 'preserve_run_at' | 'unsafe_dedupe';
  runAt?: Date;
  maxAttempts?: number;
  // Overrides the job kind's priority.
  priority?: number;
}

export class InvalidJobPayloadError extends Error {
  constructor(job: string, issues: z.ZodError['issues']) {
    super(`invalid payload for job ${job}: ${issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
    this.name = 'InvalidJobPayloadError';
  }
}

export async function enqueueJob<S extends z.ZodType>(db: Db, job: JobSpec<S>, payload: z.input<S>, opts: EnqueueOptions = {}): Promise<void> {
  const parsed = job.payload.safeParse(payload);
  if (!parsed.success) throw new InvalidJobPayloadError(job.name, parsed.error.issues);
  await db.$executeRaw`SELECT graphile_worker.add_job(
    identifier => ${job.name}::text,
    payload => ${JSON.stringify(parsed.data)}::json,
    run_at => ${opts.runAt ?? null}::timestamptz,
    max_attempts => ${opts.maxAttempts ?? null}::int,
    job_key => ${opts.jobKey ?? null}::text,
    priority => ${opts.priority ?? job.priority ?? null}::int,
    job_key_mode => ${opts.jobKeyMode ?? null}::text
  )`;
}
