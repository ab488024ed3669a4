// Users: made by the operator with a first API key, found or made for an identity provider's subject,
// and described to a sign-in. The SQL is in stores/accounts-store.ts.
import { z } from 'zod';
import { conflict, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { Sql } from '../../db/kysely.js';
import type { User } from '../../generated/prisma/client.js';
import * as store from '../../stores/accounts-store.js';
import { parseOrInvalid } from '../validation.js';
import type { AccountContext } from './context.js';
import { issueKey } from './keys.js';

const email = z.email('must be a valid address');

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

export const createUser = (ctx: AccountContext, input: { email: string; name?: string | null; isAdmin?: boolean }) =>
  createUserWithKey(ctx.deps.sql, input, ctx.deps.clock.now());

// What a sign-in answers about its user.
export async function profile(ctx: AccountContext, userId: string) {
  const found = await store.profileOf(ctx.deps.sql, userId);
  if (!found) throw notFound('user');
  return found;
}

// Users signing in with an access token are found by its subject, else created on first sight of it.
// A token whose email belongs to an existing account is linked to that account when the identity
// provider (trusted: it is the configured issuer) says the email is verified and the account has no
// other identity; otherwise it is refused with 409, never given a second account with that email.
export async function userForSubject(ctx: AccountContext, claims: { sub: string; email?: string; emailVerified?: boolean; name?: string }): Promise<User> {
  const { sql: db, clock } = ctx.deps;
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
}
