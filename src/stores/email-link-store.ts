// The SQL of sign-in links (table email_links). Rules are in email-links.ts.
import { sql } from 'kysely';
import type { SqlDb } from '../db/kysely.js';
import { jobCall } from './job-store.js';
import { mailSignInLink } from '../jobs/specs/email-sign-in-link.js';

export function emailLinkStore(db: SqlDb) {
  return {
    // Serialises the requests for one address, so two at once cannot both pass its count.
    async lockAddress(email: string): Promise<void> {
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`email-link:${email}`}))`.execute(db);
    },

    async countSince(by: { email: string } | { addressKey: string }, since: Date): Promise<number> {
      let query = db.selectFrom('emailLinks').select((eb) => eb.fn.countAll<string>().as('n')).where('createdAt', '>', since);
      query = 'email' in by ? query.where('email', '=', by.email) : query.where('addressKey', '=', by.addressKey);
      const row = await query.executeTakeFirstOrThrow();
      return Number(row.n);
    },

    // The request's row; with a token, the mail job is added in the same statement's transaction.
    async insert(row: { id: string; email: string; hash: string | null; tokenEnc: string | null; addressKey: string; createdAt: Date; expiresAt: Date }): Promise<void> {
      await db.insertInto('emailLinks').values(row).execute();
      if (row.hash) await sql`SELECT ${jobCall(mailSignInLink, { emailLinkId: row.id })}`.execute(db);
    },

    findForMail(id: string) {
      return db.selectFrom('emailLinks').select(['email', 'tokenEnc', 'expiresAt', 'usedAt']).where('id', '=', id).executeTakeFirst();
    },

    async forgetToken(id: string): Promise<void> {
      await db.updateTable('emailLinks').set({ tokenEnc: null }).where('id', '=', id).execute();
    },

    // Uses a link once: only an unused, unexpired one is marked used; its address, or undefined.
    async use(hash: string, now: Date): Promise<string | undefined> {
      const row = await db
        .updateTable('emailLinks')
        .set({ usedAt: now, tokenEnc: null })
        .where('hash', '=', hash)
        .where('usedAt', 'is', null)
        .where('expiresAt', '>', now)
        .returning('email')
        .executeTakeFirst();
      return row?.email;
    },

    // The address of an unused, unexpired link, without using it (the page asks before signing in).
    async peek(hash: string, now: Date): Promise<string | undefined> {
      const row = await db.selectFrom('emailLinks').select('email').where('hash', '=', hash).where('usedAt', 'is', null).where('expiresAt', '>', now).executeTakeFirst();
      return row?.email;
    },

    // Requests older than any count or link needs.
    async prune(before: Date): Promise<void> {
      await db.deleteFrom('emailLinks').where('createdAt', '<', before).execute();
    },
  };
}
