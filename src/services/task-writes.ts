// A new task's insert, in SQL: every created task makes it, where a Prisma model call costs about twice a
// raw statement (bench/prisma-call-cost.ts), and the writes that come with it ride in the same statement
// (one round trip): the routed agent's task count and the task's expiry job.
import type { Tx } from '../db/client.js';
import { insertListsOf } from '../db/columns.js';
import { Prisma, type Task } from '../generated/prisma/client.js';
import { TASK_COLUMNS, taskSelection } from './task-columns.js';

export interface TaskInsertExtras {
  // The agent the task was routed to: its task count goes up (updated_at = `now`, as Prisma's @updatedAt).
  countFor: string | null;
  now: Date;
  // A jobCall (jobs/enqueue.ts) the task causes.
  job: Prisma.Sql;
}

// Fields left out take their column defaults; updated_at is set as Prisma's @updatedAt sets it on create.
export async function insertTask(t: Tx, data: Prisma.TaskUncheckedCreateInput, extras: TaskInsertExtras): Promise<Task> {
  const lists = insertListsOf(TASK_COLUMNS, { ...data, updatedAt: new Date() });
  if (!lists) throw new Error('a task insert writes plain values only');
  const counted = extras.countFor
    ? Prisma.sql`, a AS (UPDATE agents SET task_count = task_count + 1, updated_at = ${extras.now}::timestamptz WHERE id = ${extras.countFor})`
    : Prisma.empty;
  const rows = await t.$queryRaw<Array<Task & { jobId?: unknown }>>`
    WITH m AS (INSERT INTO tasks (${lists.names}) VALUES (${lists.values}) RETURNING *)${counted}
    SELECT ${taskSelection('m')}, (${extras.job}).id::text AS "jobId" FROM m`;
  const row = rows[0]!;
  delete row.jobId;
  return row;
}
