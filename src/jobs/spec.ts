// What a job kind is, apart from what it does: its name, the shape of its payload (checked when it is
// enqueued and again when it runs), its priority and attempts, and the key that keeps one pending job per
// subject. Services import specs only; the handlers (worker/handlers.ts) import services, so the two never
// import each other.
import type { z } from 'zod';

// graphile-worker runs due jobs with the lower number first. Expiry is bound to a time the requester was
// promised, so it must not wait behind a backlog of deliveries; probes are background work.
export const JobPriority = { first: -10, normal: 0, background: 10 } as const;

export interface JobSpec<S extends z.ZodType = z.ZodType> {
  name: string;
  payload: S;
  priority?: number;
  // graphile-worker's default (25, about three days of backoff) when not set.
  maxAttempts?: number;
  // The subject of a job, from its payload: at most one job per subject is pending, and enqueueing it
  // again replaces the pending one's payload and run time. The job key is `<name>:<subject>`. Without
  // `subject`, the kind has one pending job at all, keyed by its name. The subject names every field of
  // the payload (test/jobs-replaced.test.ts checks it): replacing a pending job then never drops work.
  subject?: (payload: z.output<S>) => string;
}

export function defineJob<S extends z.ZodType>(spec: JobSpec<S>): JobSpec<S> {
  return spec;
}

// The job key of a payload, derived from the spec so that every call site agrees on it.
//
// Before keys were derived here, three were written as deliver:<id>, expire:<id> and route:<id>; they are
// now task.deliver:<id>, task.expire:<id> and task.route:<id> (the other kinds kept theirs). A job queued
// under an old key still runs: the worker finds its handler by name and the payload is unchanged. The key
// only deduplicates, so while old jobs are pending after an upgrade a task may get one extra expire, route
// or deliver job, which does nothing harmful: each moves state only from the state it expects, and a
// delivery attempt first claims its delivery.
export function jobKey<S extends z.ZodType>(spec: JobSpec<S>, payload: z.output<S>): string {
  return spec.subject ? `${spec.name}:${spec.subject(payload)}` : spec.name;
}
