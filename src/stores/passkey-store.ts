// The SQL of passkeys and of the WebAuthn challenges handed out for them. Rules are in passkeys.ts.
import type { Selectable } from 'kysely';
import type { SqlDb } from '../db/kysely.js';
import type { Passkey, WebauthnChallenge } from '../generated/kysely/types.js';

export type PasskeyRow = Selectable<Passkey>;
export type ChallengeRow = Selectable<WebauthnChallenge>;

export function passkeyStore(db: SqlDb) {
  return {
    async insertChallenge(row: ChallengeRow): Promise<void> {
      await db.insertInto('webauthnChallenges').values(row).execute();
    },

    // Takes a challenge once: it is deleted as it is read, so a second use finds nothing. Expired ones are
    // deleted too but not returned.
    async takeChallenge(challenge: string, purpose: string, now: Date): Promise<ChallengeRow | undefined> {
      const row = await db.deleteFrom('webauthnChallenges').where('challenge', '=', challenge).where('purpose', '=', purpose).returningAll().executeTakeFirst();
      return row && row.expiresAt > now ? row : undefined;
    },

    async pruneChallenges(now: Date): Promise<void> {
      await db.deleteFrom('webauthnChallenges').where('expiresAt', '<', now).execute();
    },

    async insert(row: Omit<PasskeyRow, 'lastUsedAt' | 'counter'> & { counter: number }): Promise<void> {
      await db.insertInto('passkeys').values({ ...row, counter: String(row.counter) }).execute();
    },

    byCredentialId(credentialId: string): Promise<PasskeyRow | undefined> {
      return db.selectFrom('passkeys').selectAll().where('credentialId', '=', credentialId).executeTakeFirst();
    },

    listOf(userId: string): Promise<PasskeyRow[]> {
      return db.selectFrom('passkeys').selectAll().where('userId', '=', userId).orderBy('createdAt', 'asc').execute();
    },

    // Records a use and the signature counter the authenticator reported.
    async used(id: string, counter: number, at: Date): Promise<void> {
      await db.updateTable('passkeys').set({ counter: String(counter), lastUsedAt: at }).where('id', '=', id).execute();
    },

    async remove(userId: string, id: string): Promise<boolean> {
      const result = await db.deleteFrom('passkeys').where('id', '=', id).where('userId', '=', userId).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}
