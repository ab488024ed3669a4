// Users and their API keys. The SQL is in stores/accounts-store.ts.
import type { Deps } from '../deps.js';
import { API_KEY_PREFIX, newApiKey, sha256Hex } from '../crypto/tokens.js';
import { notFound, conflict, invalid } from '../errors.js';
import { newId } from '../ids.js';
import { isUniqueViolation } from '../db/errors.js';
import type { Sql, SqlDb } from '../db/kysely.js';
import type { User } from '../generated/prisma/client.js';
import { z } from 'zod';
import { parseOrInvalid } from './validation.js';
import { allScopes, isScope, type Scope } from '../auth/scopes.js';
import * as store from '../stores/accounts-store.js';

export type Viewer = User;

const email = z.email('must be a valid address');
// An API key's label: the createApiKey argument is checked with it, and the CLI's value too.
export const apiKeyName = z.string().max(100, 'must be at most 100 characters');
// lastUsedAt is written at most this often per key, so authenticating is not a write per request.
export const LAST_USED_RESOLUTION_MS = 60_000;

export interface NewKeyOptions {
  name?: string | null;
  scopes?: readonly string[] | null;
  expiresAt?: Date | null;
}

// A key's scopes as given: each one known, none twice; none given is every scope (stored as none).
export function keyScopesOf(given: readonly string[] | null | undefined): Scope[] {
  if (given === null || given === undefined) return [];
  if (given.length === 0) throw invalid('scopes', `must name at least one scope (${allScopes.join(', ')}), or be left out for all of them`);
  const unknown = given.find((scope) => !isScope(scope));
  if (unknown !== undefined) throw invalid('scopes', `"${unknown}" is not a scope; scopes are ${allScopes.join(', ')}`);
  return [...new Set(given as Scope[])];
}

// What a key may do: its scopes, or every scope for a key stored without any.
export const effectiveScopes = (stored: readonly string[]): Scope[] => (stored.length === 0 ? [...allScopes] : stored.filter(isScope));

async function issueKey(db: Sql, userId: string, options: NewKeyOptions, now: Date) {
  const scopes = keyScopesOf(options.scopes);
  const expiresAt = options.expiresAt ?? null;
  if (expiresAt && expiresAt.getTime() <= now.getTime()) throw invalid('expiresAt', 'must be in the future');
  const apiKey = newApiKey();
  const record = await store.insertApiKey(db, {
    id: newId('key'),
    userId,
    name: options.name ?? null,
    prefix: apiKey.slice(0, 12),
    hash: sha256Hex(apiKey),
    scopes,
    expiresAt,
  });
  return { apiKey, record: { ...record, scopes: effectiveScopes(record.scopes) } };
}

/** A new user with its first API key; needs nothing but the database (tests use it on a process's database). */
export async function createUserWithKey(db: Sql, input: { email: string; name?: string | null; isAdmin?: boolean }, now = new Date()) {
  const address = parseOrInvalid(email, input.email.trim().toLowerCase(), 'email');
  if (await store.userByEmail(db, address)) throw conflict('a user with this email exists');
  let user: User;
  try {
    user = await store.insertUser(db, { id: newId('usr'), email: address, name: input.name?.trim() || null, isAdmin: input.isAdmin ?? false }, now);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('a user with this email exists');
    throw error;
  }
  const { apiKey } = await issueKey(db, user.id, { name: 'initial' }, now);
  return { user, apiKey };
}

// What revoking a key ends besides the key: the dashboard sessions made from it (accounts/sessions.ts).
export interface KeySessions {
  endMadeFromKey(apiKeyId: string, db: SqlDb): Promise<() => Promise<void>>;
}

export function accountService(deps: Deps, keySessions: KeySessions) {
  const { clock, sql: db } = deps;

  return {
    createUser: (input: { email: string; name?: string | null; isAdmin?: boolean }) => createUserWithKey(db, input, clock.now()),

    async createApiKey(userId: string, options: NewKeyOptions | string | null = {}) {
      const given = typeof options === 'string' || options === null ? { name: options } : options;
      if (!(await store.userById(db, userId))) throw notFound('user');
      const name = given.name === null || given.name === undefined ? null : parseOrInvalid(apiKeyName, given.name, 'name');
      return issueKey(db, userId, { ...given, name }, clock.now());
    },

    // Every key of the user, revoked ones too (the CLI; GraphQL reads them through its field).
    async listApiKeys(userId: string) {
      if (!(await store.userById(db, userId))) throw notFound('user');
      return store.apiKeysOf(db, userId);
    },

    // What a sign-in answers about its user.
    async profile(userId: string) {
      const profile = await store.profileOf(db, userId);
      if (!profile) throw notFound('user');
      return profile;
    },

    // Revoking is permanent; revoking twice is harmless. A user can only revoke their own keys.
    // Takes the key's id, or (from the CLI) the key itself.
    async revokeApiKey(userId: string | null, keyIdOrKey: string) {
      const id = keyIdOrKey.startsWith(API_KEY_PREFIX) ? (await store.apiKeyBy(db, { hash: sha256Hex(keyIdOrKey) }))?.id : keyIdOrKey;
      // The key and the sessions made from it end in one transaction; both are announced after it.
      const revoked = id
        ? await db.transaction().execute(async (tx) => {
            const result = await store.revokeApiKey(tx, id, userId, clock.now());
            return result && { result, announceSessions: await keySessions.endMadeFromKey(result.key.id, tx) };
          })
        : undefined;
      if (!revoked) throw notFound('API key');
      const { result } = revoked;
      await revoked.announceSessions();
      // Subscriptions opened with the key, in any process, end now rather than at their next check.
      await deps.events.publishRevokedKey(result.key.id).catch((error: unknown) => deps.logger.warn({ err: error }, 'could not announce a revoked API key'));
      return result.key;
    },

    // The key's user, with the key's id (subscriptions remember which key opened them) and what it may do.
    // A revoked or expired key finds nothing.
    async userForApiKey(apiKey: string): Promise<{ user: User; apiKeyId: string; scopes: Scope[]; expiresAt: Date | null } | null> {
      const found = await store.keyWithUser(db, sha256Hex(apiKey));
      const now = clock.now();
      if (!found || found.key.revokedAt || (found.key.expiresAt && found.key.expiresAt <= now)) return null;
      // The read shows the last recorded use: within the resolution there is nothing to write, and no
      // statement is sent (most requests of a busy key).
      const lastUsed = found.key.lastUsedAt?.getTime() ?? Number.NEGATIVE_INFINITY;
      if (now.getTime() - lastUsed >= LAST_USED_RESOLUTION_MS) await store.touchApiKey(db, found.key.id, now, LAST_USED_RESOLUTION_MS);
      return { user: found.user, apiKeyId: found.key.id, scopes: effectiveScopes(found.key.scopes), expiresAt: found.key.expiresAt };
    },

    // Users signing in with an access token are found by its subject, else created on first sight of it.
    // A token whose email belongs to an existing account is linked to that account when the identity
    // provider (trusted: it is the configured issuer) says the email is verified and the account has no
    // other identity; otherwise it is refused with 409, never given a second account with that email.
    async userForSubject(claims: { sub: string; email?: string; emailVerified?: boolean; name?: string }): Promise<User> {
      const bySubject = () => store.userBySubject(db, claims.sub);
      const found = await bySubject();
      if (found) return found;
      const given = claims.email?.trim().toLowerCase();
      const address = given && email.safeParse(given).success ? given : null;
      if (address) {
        const holder = await store.userByEmail(db, address);
        if (holder) {
          if (claims.emailVerified !== true) {
            throw conflict('an account with this email exists, and the identity provider has not verified the email; sign in with an API key of that account', { reason: 'email_not_verified' });
          }
          const linked = (await store.linkSubject(db, holder.id, claims.sub, clock.now())) ? await bySubject() : null;
          if (linked) return linked;
          throw conflict('the account with this email is linked to another identity', { reason: 'identity_taken' });
        }
      }
      try {
        const created = await store.insertUserOfSubject(
          db,
          {
            id: newId('usr'),
            email: address ?? `${claims.sub.replace(/[^a-zA-Z0-9._-]/g, '_')}@users.invalid`,
            name: claims.name ?? null,
            externalSubject: claims.sub,
          },
          clock.now(),
        );
        const user = created ?? (await bySubject());
        if (user) return user;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
      // A first sign-in of the same subject at the same time, or another account took the email meanwhile.
      const raced = await bySubject();
      if (raced) return raced;
      throw conflict('an account with this email exists', { reason: 'email_taken' });
    },
  };
}

export type AccountService = ReturnType<typeof accountService>;
