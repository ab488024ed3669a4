// The SQL of sign-in links (table email_links). Rules are in services/accounts/email-links.ts.
import { sql } from 'kysely';
import type { SqlDb } from '../db/kysely.js';
import { jobCall } from './job-store.js';
import { mailSignInLink } from '../jobs/specs/email-sign-in-link.js';

// Serialises the requests for one address, so two at once cannot both pass its count.
export async function lockLinkAddress(db: SqlDb, email: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${`email-link:${email}`}))`.execute(db);
}

export async function linksSince(db: SqlDb, by: { email: string } | { addressKey: string }, since: Date): Promise<number> {
  let query = db.selectFrom('emailLinks').select((eb) => eb.fn.countAll<string>().as('n')).where('createdAt', '>', since);
  query = 'email' in by ? query.where('email', '=', by.email) : query.where('addressKey', '=', by.addressKey);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}

// The request's row; with a token, the mail job is added in the same statement's transaction.
export async function insertLink(db: SqlDb, row: { id: string; email: string; hash: string | null; tokenEnc: string | null; addressKey: string; createdAt: Date; expiresAt: Date }): Promise<void> {
  await db.insertInto('emailLinks').values(row).execute();
  if (row.hash) await sql`SELECT ${jobCall(mailSignInLink, { emailLinkId: row.id })}`.execute(db);
}

export function linkForMail(db: SqlDb, id: string) {
  return db.selectFrom('emailLinks').select(['email', 'tokenEnc', 'expiresAt', 'usedAt']).where('id', '=', id).executeTakeFirst();
}

export async function forgetLinkToken(db: SqlDb, id: string): Promise<void> {
  await db.updateTable('emailLinks').set({ tokenEnc: null }).where('id', '=', id).execute();
}

// Uses a link once: only an unused, unexpired one is marked used; its address, or undefined.
export async function useLink(db: SqlDb, hash: string, now: Date): Promise<string | undefined> {
  const row = await db
    .updateTable('emailLinks')
    .set({ usedAt: now, tokenEnc: null })
    .where('hash', '=', hash)
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', now)
    .returning('email')
    .executeTakeFirst();
  return row?.email;
}

// The address of an unused, unexpired link, without using it (the page asks before signing in).
export async function peekLink(db: SqlDb, hash: string, now: Date): Promise<string | undefined> {
  const row = await db.selectFrom('emailLinks').select('email').where('hash', '=', hash).where('usedAt', 'is', null).where('expiresAt', '>', now).executeTakeFirst();
  return row?.email;
}

// Requests older than any count or link needs.
export async function pruneLinks(db: SqlDb, before: Date): Promise<void> {
  await db.deleteFrom('emailLinks').where('createdAt', '<', before).execute();
}
