// Users and their API keys.
import type { Deps } from '../deps.js';
import { API_KEY_PREFIX, newApiKey, sha256Hex } from '../crypto/tokens.js';
import { notFound, conflict } from '../errors.js';
import { newId } from '../ids.js';
import { isUniqueViolation } from '../db/errors.js';
import type { Prisma, User } from '../generated/prisma/client.js';
import { z } from 'zod';
import { parseOrInvalid } from './validation.js';
import { userSelection } from './user-columns.js';

export type Viewer = User;

const email = z.email('must be a valid address');
// An API key's label: the createApiKey argument is checked with it, and the CLI's value too.
export const apiKeyName = z.string().max(100, 'must be at most 100 characters');
// lastUsedAt is written at most this often per key, so authenticating is not a write per request.
const LAST_USED_RESOLUTION_MS = 60_000;

async function issueKey(prisma: Deps['prisma'], userId: string, name: string | null) {
  const apiKey = newApiKey();
  const record = await prisma.apiKey.create({
    data: { id: newId('key'), userId, name, prefix: apiKey.slice(0, 12), hash: sha256Hex(apiKey) },
  });
  return { apiKey, record };
}

/** A new user with its first API key; needs nothing but the database (tests use it on a process's database). */
export async function createUserWithKey(prisma: Deps['prisma'], input: { email: string; name?: string | null; isAdmin?: boolean }) {
  const address = parseOrInvalid(email, input.email.trim().toLowerCase(), 'email');
  const existing = await prisma.user.findUnique({ where: { email: address } });
  if (existing) throw conflict('a user with this email exists');
  const user = await prisma.user.create({
    data: { id: newId('usr'), email: address, name: input.name?.trim() || null, isAdmin: input.isAdmin ?? false },
  });
  const { apiKey } = await issueKey(prisma, user.id, 'initial');
  return { user, apiKey };
}

export function accountService(deps: Deps) {
  const { prisma, clock } = deps;

  return {
    createUser: (input: { email: string; name?: string | null; isAdmin?: boolean }) => createUserWithKey(prisma, input),

    async createApiKey(userId: string, name: string | null = null) {
      const user = await prisma.user.findUnique({ where: { id: userId } });
      if (!user) throw notFound('user');
      return issueKey(prisma, userId, name === null ? null : parseOrInvalid(apiKeyName, name, 'name'));
    },

    listApiKeys(userId: string, query: { include?: Prisma.ApiKeyInclude } = {}) {
      return prisma.apiKey.findMany({ ...query, where: { userId }, orderBy: { createdAt: 'desc' } });
    },

    // Revoking is permanent; revoking twice is harmless. A user can only revoke their own keys.
    // Takes the key's id, or (from the CLI) the key itself.
    async revokeApiKey(userId: string | null, keyIdOrKey: string, query: { include?: Prisma.ApiKeyInclude } = {}) {
      const key = keyIdOrKey.startsWith(API_KEY_PREFIX)
        ? await prisma.apiKey.findUnique({ where: { hash: sha256Hex(keyIdOrKey) } })
        : await prisma.apiKey.findUnique({ where: { id: keyIdOrKey } });
      if (!key || (userId !== null && key.userId !== userId)) throw notFound('API key');
      if (key.revokedAt) return key;
      const revoked = await prisma.apiKey.update({ ...query, where: { id: key.id }, data: { revokedAt: new Date() } });
      // Subscriptions opened with the key, in any process, end now rather than at their next check.
      await deps.events.publishRevokedKey(key.id).catch((error: unknown) => deps.logger.warn({ err: error }, 'could not announce a revoked API key'));
      return revoked;
    },

    // The key's user, with the key's id (subscriptions remember which key opened them).
    async userForApiKey(apiKey: string): Promise<{ user: User; apiKeyId: string } | null> {
      // The key with its user in one statement, in SQL: every authenticated request makes this read.
      const [row] = await prisma.$queryRaw<Array<User & { keyId: string; keyRevokedAt: Date | null; keyLastUsedAt: Date | null }>>`
        SELECT k.id AS "keyId", k.revoked_at AS "keyRevokedAt", k.last_used_at AS "keyLastUsedAt", ${userSelection('u')}
        FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.hash = ${sha256Hex(apiKey)}`;
      if (!row || row.keyRevokedAt) return null;
      const { keyId, keyRevokedAt: _revoked, keyLastUsedAt, ...user } = row;
      const now = clock.now().getTime();
      if (!keyLastUsedAt || now - keyLastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
        await prisma.apiKey.update({ where: { id: keyId }, data: { lastUsedAt: new Date(now) } });
      }
      return { user, apiKeyId: keyId };
    },

    // Users signing in with an access token are found by its subject, else created on first sight of it.
    // A token whose email belongs to an existing account is linked to that account when the identity
    // provider (trusted: it is the configured issuer) says the email is verified and the account has no
    // other identity; otherwise it is refused with 409, never given a second account with that email.
    async userForSubject(claims: { sub: string; email?: string; emailVerified?: boolean; name?: string }): Promise<User> {
      const bySubject = () => prisma.user.findUnique({ where: { externalSubject: claims.sub } });
      const found = await bySubject();
      if (found) return found;
      const given = claims.email?.trim().toLowerCase();
      const address = given && email.safeParse(given).success ? given : null;
      if (address) {
        const holder = await prisma.user.findUnique({ where: { email: address } });
        if (holder) {
          if (claims.emailVerified !== true) {
            throw conflict('an account with this email exists, and the identity provider has not verified the email; sign in with an API key of that account', { reason: 'email_not_verified' });
          }
          const { count } = await prisma.user.updateMany({ where: { id: holder.id, externalSubject: null }, data: { externalSubject: claims.sub } });
          const linked = count === 1 ? await bySubject() : null;
          if (linked) return linked;
          throw conflict('the account with this email is linked to another identity', { reason: 'identity_taken' });
        }
      }
      try {
        return await prisma.user.upsert({
          where: { externalSubject: claims.sub },
          create: {
            id: newId('usr'),
            email: address ?? `${claims.sub.replace(/[^a-zA-Z0-9._-]/g, '_')}@users.invalid`,
            name: claims.name ?? null,
            externalSubject: claims.sub,
          },
          update: {},
        });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        // A first sign-in of the same subject at the same time, or another account took the email meanwhile.
        const raced = await bySubject();
        if (raced) return raced;
        throw conflict('an account with this email exists', { reason: 'email_taken' });
      }
    },
  };
}

export type AccountService = ReturnType<typeof accountService>;
