// The SQL of users, their API keys and what turns a bearer credential into its user. Rules (who may do
// what, validation) are in services/accounts/.
import type { Selectable } from 'kysely';
import type { SqlDb } from '../db/kysely.js';
import { compiledStatement } from '../db/compiled-statement.js';
import type { ApiKey, User } from '../generated/kysely/types.js';

export type UserRow = Selectable<User>;
export type ApiKeyRow = Omit<Selectable<ApiKey>, 'hash'>;

// Every column of users, each named once: a column added to the table fails to compile here until it is
// listed, so a credential's lookup never leaves part of its user behind.
const userColumnSet = {
  id: true,
  email: true,
  name: true,
  externalSubject: true,
  isAdmin: true,
  stripeCustomerId: true,
  defaultPaymentMethodId: true,
  cardBrand: true,
  cardLast4: true,
  connectAccountId: true,
  notificationUrl: true,
  notificationSecretEnc: true,
  emailVerifiedAt: true,
  emailUnproven: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Record<keyof UserRow, true>;
type UserColumn = keyof typeof userColumnSet;
const userColumns = Object.keys(userColumnSet) as UserColumn[];

// The user's part of a credential lookup (an API key, a session, an app's access token), written once:
// the lookup joins `users as u`, selects these beside its own columns (aliased, so no name is taken
// twice), and reads its user from the row with credentialUserOf.
export const credentialUserColumns = userColumns.map((column) => `u.${column}` as const);

// A fixed list of copies, not a walk over the row's keys: every authenticated request makes one.
export function credentialUserOf(row: UserRow): UserRow {
  const user: Record<string, unknown> = {};
  for (const column of userColumns) user[column] = row[column];
  return user as UserRow;
}

const keyColumns = ['id', 'userId', 'name', 'prefix', 'scopes', 'createdAt', 'lastUsedAt', 'revokedAt', 'expiresAt'] as const;

export async function userById(db: SqlDb, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function userByEmail(db: SqlDb, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function userBySubject(db: SqlDb, subject: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('externalSubject', '=', subject).executeTakeFirst();
}

export interface NewUser {
  id: string;
  email: string;
  name: string | null;
  isAdmin?: boolean;
  emailVerifiedAt?: Date | null;
  // An address nobody has proven yet (a passkey sign-up): its owner may take it back (releaseUnprovenEmail).
  emailUnproven?: boolean;
  externalSubject?: string;
}

export async function insertUser(db: SqlDb, user: NewUser, now: Date): Promise<UserRow> {
  return db
    .insertInto('users')
    .values({ ...user, createdAt: now, updatedAt: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

// The user of an external identity's first sign-in; the one already made when another sign-in of the
// same subject got there first (undefined then: read it).
export async function insertUserOfSubject(db: SqlDb, user: NewUser & { externalSubject: string }, now: Date): Promise<UserRow | undefined> {
  return db
    .insertInto('users')
    .values({ ...user, createdAt: now, updatedAt: now })
    .onConflict((oc) => oc.column('externalSubject').doNothing())
    .returningAll()
    .executeTakeFirst();
}

// Links an account that has no external identity yet to `subject`; false when it has one.
export async function linkSubject(db: SqlDb, userId: string, subject: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ externalSubject: subject, updatedAt: now })
    .where('id', '=', userId)
    .where('externalSubject', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

// The address is proven (a sign-in link was used); once.
export async function markEmailVerified(db: SqlDb, id: string, at: Date): Promise<void> {
  await db.updateTable('users').set({ emailVerifiedAt: at, emailUnproven: false, updatedAt: at }).where('id', '=', id).where('emailVerifiedAt', 'is', null).execute();
}

// Takes an unproven address away from the account that claimed it: the account keeps a placeholder in
// the reserved .invalid domain (RFC 2606), unique by its id, so the address is free for its owner.
export async function releaseUnprovenEmail(db: SqlDb, id: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ email: `${id}@unproven.invalid`, updatedAt: at })
    .where('id', '=', id)
    .where('emailUnproven', '=', true)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export function insertApiKey(
  db: SqlDb,
  key: { id: string; userId: string; name: string | null; prefix: string; hash: string; scopes: string[]; expiresAt: Date | null },
): Promise<ApiKeyRow> {
  return db.insertInto('apiKeys').values(key).returning(keyColumns).executeTakeFirstOrThrow();
}

// Every key of the user, revoked ones too, newest first.
export function apiKeysOf(db: SqlDb, userId: string): Promise<ApiKeyRow[]> {
  return db.selectFrom('apiKeys').select(keyColumns).where('userId', '=', userId).orderBy('createdAt', 'desc').execute();
}

// The keys a user can still use or see expire, newest first; revoked ones are gone from the list.
export function liveApiKeys(db: SqlDb, userId: string): Promise<ApiKeyRow[]> {
  return db
    .selectFrom('apiKeys')
    .select(keyColumns)
    .where('userId', '=', userId)
    .where('revokedAt', 'is', null)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export function apiKeyBy(db: SqlDb, by: { id: string } | { hash: string }): Promise<ApiKeyRow | undefined> {
  const query = db.selectFrom('apiKeys').select(keyColumns);
  return ('id' in by ? query.where('id', '=', by.id) : query.where('hash', '=', by.hash)).executeTakeFirst();
}

// What authenticating with a key needs of it: who may use it, what for, until when, and when its use
// was last recorded (keys.ts writes that at most once a minute).
export type KeyForAuthentication = Pick<ApiKeyRow, 'id' | 'scopes' | 'lastUsedAt' | 'expiresAt'>;

// A live key and its user in one statement: every request authenticated by a key makes this read, so it
// is compiled once (db/compiled-statement.ts) and reads no column of the key that authenticating does
// not use (pg's cost per row grows with its columns). A revoked key finds nothing.
const keyWithUserStatement = compiledStatement((db, param) =>
  db
    .selectFrom('apiKeys as k')
    .innerJoin('users as u', 'u.id', 'k.userId')
    .select(credentialUserColumns)
    .select(['k.id as keyId', 'k.scopes as keyScopes', 'k.lastUsedAt as keyLastUsedAt', 'k.expiresAt as keyExpiresAt'])
    .where('k.hash', '=', param<string>('hash'))
    .where('k.revokedAt', 'is', null),
);

export async function keyWithUser(db: SqlDb, hash: string): Promise<{ key: KeyForAuthentication; user: UserRow } | undefined> {
  const [row] = (await keyWithUserStatement.run(db, { hash })).rows;
  if (!row) return undefined;
  return {
    key: { id: row.keyId, scopes: row.keyScopes, lastUsedAt: row.keyLastUsedAt, expiresAt: row.keyExpiresAt },
    user: credentialUserOf(row),
  };
}

// Records a use unless one was recorded within `resolutionMs`: one write a minute per busy key, not one
// per request; the condition makes concurrent requests write it once.
export async function touchApiKey(db: SqlDb, id: string, now: Date, resolutionMs: number): Promise<void> {
  await db
    .updateTable('apiKeys')
    .set({ lastUsedAt: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('lastUsedAt', 'is', null), eb('lastUsedAt', '<', new Date(now.getTime() - resolutionMs))]))
    .execute();
}

// Revokes the key if it is still live; the row as it is afterwards (undefined: no such key of that user).
export async function revokeApiKey(db: SqlDb, id: string, userId: string | null, now: Date): Promise<{ key: ApiKeyRow; revokedNow: boolean } | undefined> {
  let update = db.updateTable('apiKeys').set({ revokedAt: now }).where('id', '=', id).where('revokedAt', 'is', null);
  if (userId !== null) update = update.where('userId', '=', userId);
  const revoked = await update.returning(keyColumns).executeTakeFirst();
  if (revoked) return { key: revoked, revokedNow: true };
  const key = await apiKeyBy(db, { id });
  if (!key || (userId !== null && key.userId !== userId)) return undefined;
  return { key, revokedNow: false };
}


// The processor's customer and connected account of a user, each set once (a racing second write keeps
// the first id).
export async function recordCustomerId(db: SqlDb, userId: string, customerId: string, now: Date): Promise<void> {
  await db.updateTable('users').set({ stripeCustomerId: customerId, updatedAt: now }).where('id', '=', userId).where('stripeCustomerId', 'is', null).execute();
}

export async function recordConnectAccountId(db: SqlDb, userId: string, accountId: string, now: Date): Promise<void> {
  await db.updateTable('users').set({ connectAccountId: accountId, updatedAt: now }).where('id', '=', userId).where('connectAccountId', 'is', null).execute();
}

// Where the user's operational events go, and the sealed secret that signs them.
export async function notificationSettings(db: SqlDb, userId: string): Promise<{ notificationUrl: string | null; notificationSecretEnc: string | null }> {
  return db.selectFrom('users').select(['notificationUrl', 'notificationSecretEnc']).where('id', '=', userId).executeTakeFirstOrThrow();
}

// The secret is kept when `secretEnc` is undefined.
export async function setNotificationUrl(db: SqlDb, userId: string, url: string | null, secretEnc: string | null | undefined, now: Date): Promise<void> {
  await db.updateTable('users').set({ notificationUrl: url, notificationSecretEnc: secretEnc, updatedAt: now }).where('id', '=', userId).execute();
}

// What a sign-in answers about its user.
export async function profileOf(db: SqlDb, userId: string): Promise<{ id: string; email: string; name: string | null } | undefined> {
  return db.selectFrom('users').select(['id', 'email', 'name']).where('id', '=', userId).executeTakeFirst();
}
