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

export async function ratingOfAgent(db: SqlDb, agentId: string): Promise<{ ratingSum: number; ratingCount: number } | null> {
  return (await db.selectFrom('agents').select(['ratingSum', 'ratingCount']).where('id', '=', agentId).executeTakeFirst()) ?? null;
}

// An administrator's verification; updatedAt is the owner's last edit and stays. False for an unknown agent.
export async function setAgentVerified(db: SqlDb, agentId: string, verified: boolean, now: Date): Promise<boolean> {
  const result = await db.updateTable('agents').set({ verified, verifiedAt: verified ? now : null }).where('id', '=', agentId).executeTakeFirst();
  return result.numUpdatedRows === 1n;
}
