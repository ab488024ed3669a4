// The a2a_task_links table: which of an A2A agent's tasks is ours, and how often it was polled.
import { sql, type RawBuilder } from 'kysely';
import type { Sql, SqlDb } from '../db/kysely.js';

export interface A2ALink {
  taskId: string;
  remoteTaskId: string;
  remoteContextId: string;
  polls: number;
}

export async function linkOf(db: SqlDb, taskId: string): Promise<A2ALink | null> {
  return (await db.selectFrom('a2aTaskLinks').select(['taskId', 'remoteTaskId', 'remoteContextId', 'polls']).where('taskId', '=', taskId).executeTakeFirst()) ?? null;
}

// What the agent last said its task is.
export async function saveLink(db: SqlDb, link: Omit<A2ALink, 'polls'>, now: Date): Promise<void> {
  await db
    .insertInto('a2aTaskLinks')
    .values({ ...link, createdAt: now, updatedAt: now })
    .onConflict((oc) => oc.column('taskId').doUpdateSet({ remoteTaskId: link.remoteTaskId, remoteContextId: link.remoteContextId, updatedAt: now }))
    .execute();
}

// One more poll of the agent's task; its count after, or null without a link.
export async function countPoll(db: SqlDb, taskId: string, now: Date): Promise<number | null> {
  const row = await db
    .updateTable('a2aTaskLinks')
    .set((eb) => ({ polls: eb('polls', '+', 1), updatedAt: now }))
    .where('taskId', '=', taskId)
    .returning('polls')
    .executeTakeFirst();
  return row?.polls ?? null;
}

// a2aLink.saveArtifacts: the artifacts of the agent's report that the task completed, with the job that
// keeps their files, in one transaction; unless a report before it saved them (the reply, a push and a
// poll all carry the same completion: the first one counts, and its job is the only one). False when
// nothing was saved (another report was first, or there is no link).
export async function saveCompletedArtifacts(db: Sql, taskId: string, artifacts: unknown[], job: RawBuilder<unknown>): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const row = await tx
      .updateTable('a2aTaskLinks')
      .set({ artifacts: JSON.stringify(artifacts) })
      .where('taskId', '=', taskId)
      .where('artifacts', 'is', null)
      .returning('taskId')
      .executeTakeFirst();
    if (!row) return false;
    await sql`SELECT ${job}`.execute(tx);
    return true;
  });
}

// a2aLink.artifacts: the saved artifacts of the task's completion, or null.
export async function completedArtifacts(db: SqlDb, taskId: string): Promise<unknown[] | null> {
  const row = await db.selectFrom('a2aTaskLinks').select('artifacts').where('taskId', '=', taskId).executeTakeFirst();
  return Array.isArray(row?.artifacts) ? (row.artifacts as unknown[]) : null;
}
