// The reads of the agents table that the task path needs (who owns an agent, where its owner hears of
// events). The agents' own writes stay with services/agents.ts; reputation's with src/reputation.
import type { SqlDb } from '../db/kysely.js';

export async function ownerOfAgent(db: SqlDb, agentId: string): Promise<string | null> {
  const row = await db.selectFrom('agents').select('ownerId').where('id', '=', agentId).executeTakeFirst();
  return row?.ownerId ?? null;
}

// The agent's owner and the URL their operational events go to (null: none set).
export async function ownerWithNotificationUrl(db: SqlDb, agentId: string): Promise<{ ownerId: string; notificationUrl: string | null } | null> {
  const row = await db
    .selectFrom('agents as a')
    .innerJoin('users as u', 'u.id', 'a.ownerId')
    .select(['a.ownerId', 'u.notificationUrl'])
    .where('a.id', '=', agentId)
    .executeTakeFirst();
  return row ?? null;
}
