// The SQL of OAuth apps (clients), the user's grants to them, and the codes and tokens issued from a
// grant. Codes and tokens are kept as SHA-256 digests only. Rules live in services/oauth/.
import type { SqlDb } from '../db/kysely.js';
import type { Selectable } from 'kysely';
import type { OAuthClient, OAuthGrant } from '../generated/kysely/types.js';
import { credentialUserColumns, credentialUserOf, type UserRow } from './accounts-store.js';

export type OAuthClientRow = Selectable<OAuthClient>;
export type GrantRow = Selectable<OAuthGrant>;

export function insertClient(db: SqlDb, client: { id: string; name: string; redirectUris: string[]; clientUri: string | null }): Promise<OAuthClientRow> {
  return db.insertInto('oauthClients').values(client).returningAll().executeTakeFirstOrThrow();
}

export function clientById(db: SqlDb, id: string): Promise<OAuthClientRow | undefined> {
  return db.selectFrom('oauthClients').selectAll().where('id', '=', id).executeTakeFirst();
}

export function insertGrant(db: SqlDb, grant: { id: string; clientId: string; userId: string; scopes: string[]; resource: string }): Promise<GrantRow> {
  return db.insertInto('oauthGrants').values(grant).returningAll().executeTakeFirstOrThrow();
}

export async function insertCode(db: SqlDb, code: { hash: string; grantId: string; redirectUri: string; codeChallenge: string; expiresAt: Date }): Promise<void> {
  await db.insertInto('oauthCodes').values(code).execute();
}

// A code with its grant, read without spending it, so a request that fails its checks (another client's
// code, a wrong verifier) leaves the rightful client's code usable.
export async function peekCode(
  db: SqlDb,
  hash: string,
): Promise<{ code: { grantId: string; redirectUri: string; codeChallenge: string; expiresAt: Date; usedAt: Date | null }; grant: GrantRow } | undefined> {
  const code = await db.selectFrom('oauthCodes').select(['grantId', 'redirectUri', 'codeChallenge', 'expiresAt', 'usedAt']).where('hash', '=', hash).executeTakeFirst();
  if (!code) return undefined;
  const grant = await db.selectFrom('oauthGrants').selectAll().where('id', '=', code.grantId).executeTakeFirstOrThrow();
  return { code, grant };
}

// A refresh token with its grant, read without spending it (as peekCode).
export async function peekRefreshToken(db: SqlDb, hash: string): Promise<{ grant: GrantRow; expiresAt: Date; usedAt: Date | null } | undefined> {
  const token = await db.selectFrom('oauthTokens').select(['grantId', 'expiresAt', 'usedAt']).where('hash', '=', hash).where('kind', '=', 'refresh').executeTakeFirst();
  if (!token) return undefined;
  const grant = await db.selectFrom('oauthGrants').selectAll().where('id', '=', token.grantId).executeTakeFirstOrThrow();
  return { grant, expiresAt: token.expiresAt, usedAt: token.usedAt };
}

// Marks the code used if it was not: the code's row and grant when this call used it; `replayed` when it
// had been used before (the caller revokes the grant).
export async function useCode(
  db: SqlDb,
  hash: string,
  now: Date,
): Promise<{ code: { grantId: string; redirectUri: string; codeChallenge: string; expiresAt: Date }; grant: GrantRow } | 'replayed' | undefined> {
  const used = await db
    .updateTable('oauthCodes')
    .set({ usedAt: now })
    .where('hash', '=', hash)
    .where('usedAt', 'is', null)
    .returning(['grantId', 'redirectUri', 'codeChallenge', 'expiresAt'])
    .executeTakeFirst();
  if (!used) {
    const known = await db.selectFrom('oauthCodes').select('grantId').where('hash', '=', hash).executeTakeFirst();
    return known ? 'replayed' : undefined;
  }
  const grant = await db.selectFrom('oauthGrants').selectAll().where('id', '=', used.grantId).executeTakeFirstOrThrow();
  return { code: used, grant };
}

export async function insertTokens(db: SqlDb, tokens: Array<{ hash: string; grantId: string; kind: 'access' | 'refresh'; expiresAt: Date }>): Promise<void> {
  await db.insertInto('oauthTokens').values(tokens).execute();
}

// Uses a refresh token once. 'replayed': it was used before (its family is to be revoked).
export async function useRefreshToken(db: SqlDb, hash: string, now: Date): Promise<{ grant: GrantRow; expiresAt: Date } | 'replayed' | undefined> {
  const used = await db
    .updateTable('oauthTokens')
    .set({ usedAt: now })
    .where('hash', '=', hash)
    .where('kind', '=', 'refresh')
    .where('usedAt', 'is', null)
    .returning(['grantId', 'expiresAt'])
    .executeTakeFirst();
  if (!used) {
    const known = await db.selectFrom('oauthTokens').select('grantId').where('hash', '=', hash).where('kind', '=', 'refresh').executeTakeFirst();
    return known ? 'replayed' : undefined;
  }
  const grant = await db.selectFrom('oauthGrants').selectAll().where('id', '=', used.grantId).executeTakeFirstOrThrow();
  return { grant, expiresAt: used.expiresAt };
}

export function grantOfToken(db: SqlDb, hash: string): Promise<GrantRow | undefined> {
  return db
    .selectFrom('oauthTokens as t')
    .innerJoin('oauthGrants as g', 'g.id', 't.grantId')
    .selectAll('g')
    .where('t.hash', '=', hash)
    .executeTakeFirst();
}

// An access token with its grant and user, for authenticating a request.
export async function accessTokenWithUser(db: SqlDb, hash: string): Promise<{ grant: GrantRow; expiresAt: Date; user: UserRow } | undefined> {
  const row = await db
    .selectFrom('oauthTokens as t')
    .innerJoin('oauthGrants as g', 'g.id', 't.grantId')
    .innerJoin('users as u', 'u.id', 'g.userId')
    .select(credentialUserColumns)
    .select([
      't.expiresAt as tokenExpiresAt',
      'g.id as grantId',
      'g.clientId as grantClientId',
      'g.scopes as grantScopes',
      'g.resource as grantResource',
      'g.createdAt as grantCreatedAt',
      'g.lastUsedAt as grantLastUsedAt',
      'g.revokedAt as grantRevokedAt',
    ])
    .where('t.hash', '=', hash)
    .where('t.kind', '=', 'access')
    .executeTakeFirst();
  if (!row) return undefined;
  const user = credentialUserOf(row);
  return {
    expiresAt: row.tokenExpiresAt,
    grant: {
      id: row.grantId,
      clientId: row.grantClientId,
      userId: user.id,
      scopes: row.grantScopes,
      resource: row.grantResource,
      createdAt: row.grantCreatedAt,
      lastUsedAt: row.grantLastUsedAt,
      revokedAt: row.grantRevokedAt,
    },
    user,
  };
}

export async function touchGrant(db: SqlDb, id: string, now: Date, resolutionMs: number): Promise<void> {
  await db
    .updateTable('oauthGrants')
    .set({ lastUsedAt: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('lastUsedAt', 'is', null), eb('lastUsedAt', '<', new Date(now.getTime() - resolutionMs))]))
    .execute();
}

// Revokes grants (by id, or all of a user's grants to a client) still live; the ids revoked now.
export async function revokeGrants(db: SqlDb, where: { id: string } | { userId: string; clientId: string }, now: Date): Promise<string[]> {
  let update = db.updateTable('oauthGrants').set({ revokedAt: now }).where('revokedAt', 'is', null);
  update = 'id' in where ? update.where('id', '=', where.id) : update.where('userId', '=', where.userId).where('clientId', '=', where.clientId);
  const rows = await update.returning('id').execute();
  return rows.map((r) => r.id);
}

// The apps a user has live grants to, one row per app with the union of its scopes.
export async function connectedApps(db: SqlDb, userId: string) {
  const rows = await db
    .selectFrom('oauthGrants as g')
    .innerJoin('oauthClients as c', 'c.id', 'g.clientId')
    .select(['c.id as clientId', 'c.name', 'c.redirectUris', 'g.scopes', 'g.createdAt', 'g.lastUsedAt'])
    .where('g.userId', '=', userId)
    .where('g.revokedAt', 'is', null)
    .orderBy('g.createdAt', 'desc')
    .execute();
  const apps = new Map<string, { clientId: string; name: string; redirectUris: string[]; scopes: Set<string>; connectedAt: Date; lastUsedAt: Date | null }>();
  for (const row of rows) {
    const app = apps.get(row.clientId);
    const lastUsedAt = row.lastUsedAt;
    if (!app) {
      apps.set(row.clientId, { clientId: row.clientId, name: row.name, redirectUris: row.redirectUris, scopes: new Set(row.scopes), connectedAt: row.createdAt, lastUsedAt });
      continue;
    }
    for (const scope of row.scopes) app.scopes.add(scope);
    if (row.createdAt < app.connectedAt) app.connectedAt = row.createdAt;
    if (lastUsedAt && (!app.lastUsedAt || lastUsedAt > app.lastUsedAt)) app.lastUsedAt = lastUsedAt;
  }
  return [...apps.values()].map((app) => ({ ...app, scopes: [...app.scopes] }));
}

// Removes what can no longer be used: codes and tokens that expired before `before`, and apps registered
// before it that no user ever granted anything (registration is open, so unused apps would pile up).
// Revoked grants stay (with their used tokens until those expire), so a replay is still recognised.
export async function pruneExpired(db: SqlDb, before: Date): Promise<{ codes: number; tokens: number; apps: number }> {
  const codes = await db.deleteFrom('oauthCodes').where('expiresAt', '<', before).executeTakeFirst();
  const tokens = await db.deleteFrom('oauthTokens').where('expiresAt', '<', before).executeTakeFirst();
  const apps = await db
    .deleteFrom('oauthClients as c')
    .where('c.createdAt', '<', before)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('oauthGrants as g').select('g.id').whereRef('g.clientId', '=', 'c.id'))))
    .executeTakeFirst();
  return { codes: Number(codes.numDeletedRows), tokens: Number(tokens.numDeletedRows), apps: Number(apps.numDeletedRows) };
}
