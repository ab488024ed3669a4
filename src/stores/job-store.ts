// Jobs are rows in graphile-worker's table, added through the caller's transaction: the job exists
// exactly when the write that caused it committed. The payload is checked against the job's schema
// here, so a malformed job fails the write that queued it instead of failing later, unseen, in the worker.
// The job key comes from the spec (jobs/spec.ts), never from the call site. `add_job` and `add_jobs` are
// written here only.
import { sql, type RawBuilder } from 'kysely';
import type { z } from 'zod';
import type { SqlDb } from '../db/kysely.js';
import { sqlWithValues } from '../db/shaped-statement.js';
import { jobKey, type JobSpec } from '../jobs/spec.js';

export interface EnqueueOptions {
  runAt?: Date;
  // When a job with the same key is pending: 'replace' (the default) gives it this payload and run time;
  // 'preserve_run_at' keeps its earlier run time.
  jobKeyMode?: 'replace' | 'preserve_run_at';
  // With 'preserve_run_at': a job with the same key that waits untried (not taken, no attempt yet) already
  // does this job's work, as add_job would leave it (same payload, its run time kept), so it is left
  // alone, locked until the caller's commit so the worker cannot take it before the caller's writes are
  // visible; add_job is called otherwise. add_job wakes the worker (pg_notify) each time, also for a job
  // that is not due: a recount queued by every finished task would cost the worker a fetch per task.
  joinWaiting?: boolean;
}

export class InvalidJobPayloadError extends Error {
  constructor(job: string, issues: z.ZodError['issues']) {
    super(`invalid payload for job ${job}: ${issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
    this.name = 'InvalidJobPayloadError';
  }
}

function checkedPayload<S extends z.ZodType>(spec: JobSpec<S>, payload: z.input<S>): z.output<S> {
  const parsed = spec.payload.safeParse(payload);
  if (!parsed.success) throw new InvalidJobPayloadError(spec.name, parsed.error.issues);
  return parsed.data;
}

/**
 * The add_job call for a job, to place in another statement of the caller's transaction (one round trip
 * for a write and the job it causes), e.g. `WITH w AS (INSERT …) SELECT ${jobCall(…)}`.
 */
export function jobCall<S extends z.ZodType>(spec: JobSpec<S>, payload: z.input<S>, opts: EnqueueOptions = {}): RawBuilder<unknown> {
  const { preserveRunAt: _mode, ...job } = queuedJob(spec, payload, opts);
  const values = {
    ...job,
    jobKeyMode: opts.jobKeyMode ?? null,
    joinWaiting: opts.joinWaiting === true,
  };
  if (values.joinWaiting && (values.jobKey === null || values.jobKeyMode !== 'preserve_run_at')) throw new Error(`${spec.name}: joinWaiting needs a job key and preserve_run_at`);
  // Made with its values apart, so that a statement compiled once per shape can take it (db/shaped-statement.ts).
  return sqlWithValues('add_job', values, (v) => {
    const add = sql`graphile_worker.add_job(
    identifier => ${v.identifier}::text,
    payload => ${v.payload}::json,
    run_at => ${v.runAt}::timestamptz,
    max_attempts => ${v.maxAttempts}::int,
    job_key => ${v.jobKey}::text,
    priority => ${v.priority}::int,
    job_key_mode => ${v.jobKeyMode}::text
  )`;
    if (!v.joinWaiting) return add;
    return sql`(CASE WHEN EXISTS (
      SELECT FROM graphile_worker._private_jobs AS waiting
      WHERE waiting.key = ${v.jobKey}::text AND waiting.is_available AND waiting.attempts = 0
      FOR UPDATE
    ) THEN NULL::graphile_worker._private_jobs ELSE ${add} END)`;
  });
}

// A job as a write queues it with others (jobsCall): its payload checked, its key from the spec.
export interface QueuedJob {
  identifier: string;
  payload: string;
  runAt: Date | null;
  maxAttempts: number | null;
  jobKey: string | null;
  priority: number | null;
  // With a job of the same key pending: keep its run time ('preserve_run_at'), or take this one's.
  preserveRunAt: boolean;
}

export function queuedJob<S extends z.ZodType>(spec: JobSpec<S>, payload: z.input<S>, opts: Pick<EnqueueOptions, 'runAt' | 'jobKeyMode'> = {}): QueuedJob {
  const data = checkedPayload(spec, payload);
  return {
    identifier: spec.name,
    payload: JSON.stringify(data),
    runAt: opts.runAt ?? null,
    maxAttempts: spec.maxAttempts ?? null,
    jobKey: jobKey(spec, data),
    priority: spec.priority ?? null,
    preserveRunAt: opts.jobKeyMode === 'preserve_run_at',
  };
}

/**
 * The jobs one write causes, added by one `add_jobs` call, placed like a jobCall (its value is the row of
 * the first job added). add_job sends graphile-worker's NOTIFY for every job, also for one that runs an
 * hour later, and each NOTIFY makes the worker ask for jobs; add_jobs sends one for the lot. So a job that
 * is not due (a task's expiry) costs the worker nothing when it rides with one that is (its delivery).
 * graphile-worker's docs mark add_jobs experimental (it may change in a minor release; the version is
 * pinned). The jobs agree on the key mode (add_jobs takes one for all) and have distinct keys. The call is
 * a subquery of its own: it runs once for the statement, when the statement first reads it (not when the
 * row it is selected with, such as a move's, was not written).
 */
export function jobsCall(jobs: readonly QueuedJob[]): RawBuilder<unknown> {
  const [first] = jobs;
  if (!first) throw new Error('jobsCall needs a job');
  if (jobs.some((job) => job.preserveRunAt !== first.preserveRunAt)) throw new Error('jobs added together take one key mode');
  const keys = jobs.map((job) => job.jobKey).filter((key) => key !== null);
  if (new Set(keys).size !== keys.length) throw new Error('jobs added together have distinct keys');
  // Made with its values apart, so that a statement compiled once per shape can take it (db/shaped-statement.ts).
  return sqlWithValues('add_jobs', { jobs }, (v) => {
    const specs = v.jobs.map(
      (job) => sql`ROW(${job.identifier}::text, ${job.payload}::json, NULL::text, ${job.runAt}::timestamptz, ${job.maxAttempts}::int, ${job.jobKey}::text, ${job.priority}::int, NULL::text[])::graphile_worker.job_spec`,
    );
    // ORDER BY reads every row the call returns, so it runs to the end whatever the caller reads of it.
    return sql`(SELECT added FROM graphile_worker.add_jobs(ARRAY[${sql.join(specs)}], ${v.jobs[0]!.preserveRunAt}::boolean) AS added ORDER BY added.id LIMIT 1)`;
  });
}

// The job on its own, through the database or the caller's open transaction.
export async function enqueue<S extends z.ZodType>(db: SqlDb, spec: JobSpec<S>, payload: z.input<S>, opts: EnqueueOptions = {}): Promise<void> {
  await sql`SELECT ${jobCall(spec, payload, opts)}`.execute(db);
}

// A job call made beforehand (jobCall), run on its own through the caller's transaction.
export async function addJob(db: SqlDb, job: RawBuilder<unknown>): Promise<void> {
  await sql`SELECT ${job}`.execute(db);
}

/**
 * The add_job call for each row of a statement, for a kind whose payload is one id field and whose subject
 * is that id (task.deliver's { deliveryId }): `id` and `runAt` are the row's expressions. The payload
 * cannot be checked here; the kind's subject is checked to be the field, so the key agrees with jobKey.
 */
export function rowJobCallSql<S extends z.ZodType>(spec: JobSpec<S>, field: string, id: RawBuilder<string>, runAt: RawBuilder<Date>): RawBuilder<unknown> {
  if (jobKey(spec, checkedPayload(spec, { [field]: 'x' } as z.input<S>)) !== `${spec.name}:x`) throw new Error(`${spec.name}'s subject is not its ${field}`);
  return sql`graphile_worker.add_job(
    identifier => ${spec.name}::text,
    payload => json_build_object(${field}::text, ${id}),
    run_at => ${runAt},
    max_attempts => ${spec.maxAttempts ?? null}::int,
    job_key => ${`${spec.name}:`}::text || ${id},
    priority => ${spec.priority ?? null}::int
  )`;
}
