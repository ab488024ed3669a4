// The a2a_task_links table: which of an A2A agent's tasks is ours, and how often it was polled.
import type { SqlDb } from '../db/kysely.js';

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
