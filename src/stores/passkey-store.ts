// The SQL of passkeys and of the WebAuthn challenges handed out for them. Rules are in
// services/accounts/passkeys.ts.
import type { Selectable } from 'kysely';
import type { SqlDb } from '../db/kysely.js';
import type { Passkey, WebauthnChallenge } from '../generated/kysely/types.js';

export type PasskeyRow = Selectable<Passkey>;
export type ChallengeRow = Selectable<WebauthnChallenge>;

export async function insertChallenge(db: SqlDb, row: ChallengeRow): Promise<void> {
  await db.insertInto('webauthnChallenges').values(row).execute();
}

// Takes a challenge once: it is deleted as it is read, so a second use finds nothing. Expired ones are
// deleted too but not returned.
export async function takeChallenge(db: SqlDb, challenge: string, purpose: string, now: Date): Promise<ChallengeRow | undefined> {
  const row = await db.deleteFrom('webauthnChallenges').where('challenge', '=', challenge).where('purpose', '=', purpose).returningAll().executeTakeFirst();
  return row && row.expiresAt > now ? row : undefined;
}

export async function pruneChallenges(db: SqlDb, now: Date): Promise<void> {
  await db.deleteFrom('webauthnChallenges').where('expiresAt', '<', now).execute();
}

export async function insertPasskey(db: SqlDb, row: Omit<PasskeyRow, 'lastUsedAt' | 'counter'> & { counter: number }): Promise<void> {
  await db.insertInto('passkeys').values({ ...row, counter: String(row.counter) }).execute();
}

export function passkeyByCredentialId(db: SqlDb, credentialId: string): Promise<PasskeyRow | undefined> {
  return db.selectFrom('passkeys').selectAll().where('credentialId', '=', credentialId).executeTakeFirst();
}

export function passkeysOf(db: SqlDb, userId: string): Promise<PasskeyRow[]> {
  return db.selectFrom('passkeys').selectAll().where('userId', '=', userId).orderBy('createdAt', 'asc').execute();
}

// Records a use and the signature counter the authenticator reported.
export async function recordPasskeyUse(db: SqlDb, id: string, counter: number, at: Date): Promise<void> {
  await db.updateTable('passkeys').set({ counter: String(counter), lastUsedAt: at }).where('id', '=', id).execute();
}

export async function removePasskey(db: SqlDb, userId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('passkeys').where('id', '=', id).where('userId', '=', userId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
