// The SQL of users and their API keys. Rules (who may do what, validation) stay in services/accounts.ts.
import type { SqlDb } from '../db/kysely.js';
import type { User } from '../generated/prisma/client.js';

export interface ApiKeyRow {
  id: string;
  userId: string;
  name: string | null;
  prefix: string;
  scopes: string[];
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  expiresAt: Date | null;
}

const keyColumns = ['id', 'userId', 'name', 'prefix', 'scopes', 'createdAt', 'lastUsedAt', 'revokedAt', 'expiresAt'] as const;

export function userById(db: SqlDb, id: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst() as Promise<User | undefined>;
}

export function userByEmail(db: SqlDb, email: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst() as Promise<User | undefined>;
}

export function insertUser(db: SqlDb, user: { id: string; email: string; name: string | null; isAdmin: boolean }, now: Date): Promise<User> {
  return db
    .insertInto('users')
    .values({ ...user, updatedAt: now })
    .returningAll()
    .executeTakeFirstOrThrow() as Promise<User>;
}

export function insertApiKey(
  db: SqlDb,
  key: { id: string; userId: string; name: string | null; prefix: string; hash: string; scopes: string[]; expiresAt: Date | null },
): Promise<ApiKeyRow> {
  return db.insertInto('apiKeys').values(key).returning(keyColumns).executeTakeFirstOrThrow() as Promise<ApiKeyRow>;
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
    .execute() as Promise<ApiKeyRow[]>;
}

export function apiKeyBy(db: SqlDb, by: { id: string } | { hash: string }): Promise<ApiKeyRow | undefined> {
  const query = db.selectFrom('apiKeys').select(keyColumns);
  return ('id' in by ? query.where('id', '=', by.id) : query.where('hash', '=', by.hash)).executeTakeFirst() as Promise<ApiKeyRow | undefined>;
}

// The key and its user in one statement: every request authenticated by a key makes this read.
export async function keyWithUser(db: SqlDb, hash: string): Promise<{ key: ApiKeyRow; user: User } | undefined> {
  const row = await db
    .selectFrom('apiKeys as k')
    .innerJoin('users as u', 'u.id', 'k.userId')
    .selectAll('u')
    .select([
      'k.id as keyId',
      'k.name as keyName',
      'k.prefix as keyPrefix',
      'k.scopes as keyScopes',
      'k.createdAt as keyCreatedAt',
      'k.lastUsedAt as keyLastUsedAt',
      'k.revokedAt as keyRevokedAt',
      'k.expiresAt as keyExpiresAt',
    ])
    .where('k.hash', '=', hash)
    .executeTakeFirst();
  if (!row) return undefined;
  const { keyId, keyName, keyPrefix, keyScopes, keyCreatedAt, keyLastUsedAt, keyRevokedAt, keyExpiresAt, ...user } = row;
  return {
    key: {
      id: keyId,
      userId: user.id,
      name: keyName,
      prefix: keyPrefix,
      scopes: keyScopes,
      createdAt: keyCreatedAt as Date,
      lastUsedAt: keyLastUsedAt as Date | null,
      revokedAt: keyRevokedAt as Date | null,
      expiresAt: keyExpiresAt as Date | null,
    },
    user: user as unknown as User,
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
  const revoked = (await update.returning(keyColumns).executeTakeFirst()) as ApiKeyRow | undefined;
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
