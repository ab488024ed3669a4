// The SQL of browser sessions (table sessions). Rules (lifetimes, who may end which) are in
// services/accounts/sessions.ts.
import type { Selectable } from 'kysely';
import type { SqlDb } from '../db/kysely.js';
import type { Session } from '../generated/kysely/types.js';
import { credentialUserColumns, credentialUserOf, type UserRow } from './accounts-store.js';

export type SessionRow = Selectable<Session>;

export interface SessionWithUser {
  session: SessionRow;
  user: UserRow;
}

export async function insertSession(db: SqlDb, row: Omit<SessionRow, 'revokedAt' | 'createdAt' | 'apiKeyId'> & { createdAt: Date; apiKeyId?: string | null }): Promise<void> {
  await db.insertInto('sessions').values(row).execute();
}

// The session of a secret's hash with its user, in one statement (every browser request reads it).
export async function sessionWithUser(db: SqlDb, hash: string): Promise<SessionWithUser | undefined> {
  const row = await db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.userId')
    .select(credentialUserColumns)
    .select(['s.id as sId', 's.userId as sUserId', 's.hash as sHash', 's.method as sMethod', 's.userAgent as sUserAgent', 's.createdAt as sCreatedAt', 's.lastSeenAt as sLastSeenAt', 's.expiresAt as sExpiresAt', 's.revokedAt as sRevokedAt', 's.apiKeyId as sApiKeyId'])
    .where('s.hash', '=', hash)
    .executeTakeFirst();
  if (!row) return undefined;
  const user = credentialUserOf(row);
  return {
    session: { id: row.sId, userId: row.sUserId, hash: row.sHash, method: row.sMethod, userAgent: row.sUserAgent, createdAt: row.sCreatedAt, lastSeenAt: row.sLastSeenAt, expiresAt: row.sExpiresAt, revokedAt: row.sRevokedAt, apiKeyId: row.sApiKeyId },
    user,
  };
}

export async function touchSession(db: SqlDb, id: string, at: Date): Promise<void> {
  await db.updateTable('sessions').set({ lastSeenAt: at }).where('id', '=', id).execute();
}

// The user's sessions that have not ended (by revocation or absolute lifetime; idle ones are filtered by the caller).
export function openSessionsOf(db: SqlDb, userId: string, now: Date): Promise<SessionRow[]> {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where('userId', '=', userId)
    .where('revokedAt', 'is', null)
    .where('expiresAt', '>', now)
    .orderBy('lastSeenAt', 'desc')
    .limit(200)
    .execute();
}

// Ends one session of the user (a conditional update: ending it twice, or another's, changes nothing).
export async function revokeSession(db: SqlDb, userId: string, id: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable('sessions')
    .set({ revokedAt: at })
    .where('id', '=', id)
    .where('userId', '=', userId)
    .where('revokedAt', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

// Ends every open session of the user; the ids, to announce.
export async function revokeSessionsOf(db: SqlDb, userId: string, at: Date): Promise<string[]> {
  const rows = await db
    .updateTable('sessions')
    .set({ revokedAt: at })
    .where('userId', '=', userId)
    .where('revokedAt', 'is', null)
    .where('expiresAt', '>', at)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

// Ends the open sessions made from an API key (the key was revoked); the ids, to announce.
export async function revokeSessionsMadeFromKey(db: SqlDb, apiKeyId: string, at: Date): Promise<string[]> {
  const rows = await db.updateTable('sessions').set({ revokedAt: at }).where('apiKeyId', '=', apiKeyId).where('revokedAt', 'is', null).returning('id').execute();
  return rows.map((r) => r.id);
}

// Sessions long past any use: revoked or expired before `before`.
export async function pruneSessions(db: SqlDb, before: Date): Promise<void> {
  await db
    .deleteFrom('sessions')
    .where((eb) => eb.or([eb('expiresAt', '<', before), eb('revokedAt', '<', before)]))
    .execute();
}
