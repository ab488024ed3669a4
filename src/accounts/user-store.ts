// The SQL of accounts made at sign-up (table users); the rest of the users' SQL stays in services/accounts.ts.
import type { SqlDb } from '../db/kysely.js';

export function userStore(db: SqlDb) {
  return {
    findByEmail(email: string) {
      return db.selectFrom('users').select(['id', 'emailVerifiedAt', 'emailUnproven']).where('email', '=', email).executeTakeFirst();
    },

    async insert(row: { id: string; email: string; name: string | null; emailVerifiedAt: Date | null; emailUnproven?: boolean; at: Date }): Promise<void> {
      await db
        .insertInto('users')
        .values({ id: row.id, email: row.email, name: row.name, emailVerifiedAt: row.emailVerifiedAt, emailUnproven: row.emailUnproven ?? false, createdAt: row.at, updatedAt: row.at })
        .execute();
    },

    async markEmailVerified(id: string, at: Date): Promise<void> {
      await db.updateTable('users').set({ emailVerifiedAt: at, emailUnproven: false, updatedAt: at }).where('id', '=', id).where('emailVerifiedAt', 'is', null).execute();
    },

    // Takes an unproven address away from the account that claimed it: the account keeps a placeholder in
    // the reserved .invalid domain (RFC 2606), unique by its id, so the address is free for its owner.
    async releaseUnprovenEmail(id: string, at: Date): Promise<boolean> {
      const result = await db
        .updateTable('users')
        .set({ email: `${id}@unproven.invalid`, updatedAt: at })
        .where('id', '=', id)
        .where('emailUnproven', '=', true)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}
