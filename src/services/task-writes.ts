// A new task's insert, in SQL: every created task makes it, where a Prisma model call costs about twice a
// raw statement (bench/prisma-call-cost.ts), and the writes that come with it ride in the same statement
// (one round trip): the routed agent's task count and the task's expiry job.
import type { Tx } from '../db/client.js';
import { insertRow } from '../db/columns.js';
import { Prisma, type Task } from '../generated/prisma/client.js';
import { TASK_COLUMNS } from './task-columns.js';

export interface TaskInsertExtras {
  // The agent the task was routed to: its task count goes up (updated_at = `now`, as Prisma's @updatedAt).
  countFor: string | null;
  now: Date;
  // A jobCall (jobs/enqueue.ts) the task causes.
  job: Prisma.Sql;
}

// Fields left out take their column defaults.
export function insertTask(t: Tx, data: Prisma.TaskUncheckedCreateInput, extras: TaskInsertExtras): Promise<Task> {
  const counted = extras.countFor
    ? Prisma.sql`a AS (UPDATE agents SET task_count = task_count + 1, updated_at = ${extras.now}::timestamptz WHERE id = ${extras.countFor})`
    : undefined;
  return insertRow(t, 'tasks', TASK_COLUMNS, data, { ctes: counted, job: extras.job });
}
