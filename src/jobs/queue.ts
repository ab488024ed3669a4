// Jobs are rows in graphile-worker's table, added through the caller's transaction: the job exists
// exactly when the write that caused it committed.
import type { Db } from '../db/client.js';

export interface EnqueueOptions {
  // At most one pending job per key; a later add replaces the payload and run time of the pending one.
  jobKey?: string;
  // 'preserve_run_at' keeps the earlier run time when the key already has a pending job.
  jobKeyMode?: 'replace' | 'preserve_run_at' | 'unsafe_dedupe';
  runAt?: Date;
  maxAttempts?: number;
  priority?: number;
}

export async function enqueueJob(db: Db, name: string, payload: object, opts: EnqueueOptions = {}): Promise<void> {
  await db.$executeRaw`SELECT graphile_worker.add_job(
    identifier => ${name}::text,
    payload => ${JSON.stringify(payload)}::json,
    run_at => ${opts.runAt ?? null}::timestamptz,
    max_attempts => ${opts.maxAttempts ?? null}::int,
    job_key => ${opts.jobKey ?? null}::text,
    priority => ${opts.priority ?? null}::int,
    job_key_mode => ${opts.jobKeyMode ?? null}::text
  )`;
}
