// The SQL of accounts made at sign-up (table users); the rest of the users' SQL stays in services/accounts.ts.
import type { SqlDb } from '../db/kysely.js';

export function userStore(db: SqlDb) {
  return {
    findByEmail(email: string) {
      return db.selectFrom('users').select(['id', 'emailVerifiedAt']).where('email', '=', email).executeTakeFirst();
    },

    async insert(row: { id: string; email: string; name: string | null; emailVerifiedAt: Date | null; at: Date }): Promise<void> {
      await db
        .insertInto('users')
        .values({ id: row.id, email: row.email, name: row.name, emailVerifiedAt: row.emailVerifiedAt, createdAt: row.at, updatedAt: row.at })
        .execute();
    },

    async markEmailVerified(id: string, at: Date): Promise<void> {
      await db.updateTable('users').set({ emailVerifiedAt: at, updatedAt: at }).where('id', '=', id).where('emailVerifiedAt', 'is', null).execute();
    },
  };
}
