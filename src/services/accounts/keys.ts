// API keys: issued with scopes and an optional expiry, kept as a SHA-256, revoked for good. The SQL is
// in stores/accounts-store.ts.
import { z } from 'zod';
import { API_KEY_PREFIX, newApiKey, sha256Hex } from '../../crypto/tokens.js';
import { invalid, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { Sql } from '../../db/kysely.js';
import { allScopes, isScope, type Scope } from '../../auth/scopes.js';
import * as store from '../../stores/accounts-store.js';
import { parseOrInvalid } from '../validation.js';
import { announceEnded, type AccountContext, type Viewer } from './context.js';
import { endSessionsMadeFromKey } from './sessions.js';

// An API key's label: the createApiKey argument is checked with it, and the CLI's value too.
export const apiKeyName = z.string().max(100, 'must be at most 100 characters');
// lastUsedAt is written at most this often per key, so authenticating is not a write per request.
const LAST_USED_RESOLUTION_MS = 60_000;

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

export async function issueKey(db: Sql, userId: string, options: NewKeyOptions, now: Date) {
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

export async function createApiKey(ctx: AccountContext, userId: string, options: NewKeyOptions | string | null = {}) {
  const { sql: db, clock } = ctx.deps;
  const given = typeof options === 'string' || options === null ? { name: options } : options;
  if (!(await store.userById(db, userId))) throw notFound('user');
  const name = given.name === null || given.name === undefined ? null : parseOrInvalid(apiKeyName, given.name, 'name');
  return issueKey(db, userId, { ...given, name }, clock.now());
}

// Every key of the user, revoked ones too (the CLI; GraphQL reads them through its field).
export async function listApiKeys(ctx: AccountContext, userId: string) {
  if (!(await store.userById(ctx.deps.sql, userId))) throw notFound('user');
  return store.apiKeysOf(ctx.deps.sql, userId);
}

// Revoking is permanent; revoking twice is harmless. A user can only revoke their own keys.
// Takes the key's id, or (from the CLI) the key itself.
export async function revokeApiKey(ctx: AccountContext, userId: string | null, keyIdOrKey: string) {
  const { sql: db, clock } = ctx.deps;
  const id = keyIdOrKey.startsWith(API_KEY_PREFIX) ? (await store.apiKeyBy(db, { hash: sha256Hex(keyIdOrKey) }))?.id : keyIdOrKey;
  // The key and the sessions made from it end in one transaction; both are announced after it.
  const revoked = id
    ? await db.transaction().execute(async (tx) => {
        const result = await store.revokeApiKey(tx, id, userId, clock.now());
        return result && { result, sessions: await endSessionsMadeFromKey(ctx, tx, result.key.id) };
      })
    : undefined;
  if (!revoked) throw notFound('API key');
  await announceEnded(ctx, revoked.sessions, 'an ended session');
  await announceEnded(ctx, [revoked.result.key.id], 'a revoked API key');
  return revoked.result.key;
}

// The key's user, with the key's id (subscriptions remember which key opened them) and what it may do.
// A revoked (the store's read) or expired key finds nothing.
export async function userForApiKey(ctx: AccountContext, apiKey: string): Promise<{ user: Viewer; apiKeyId: string; scopes: Scope[]; expiresAt: Date | null } | null> {
  const { sql: db, clock } = ctx.deps;
  const found = await store.keyWithUser(db, sha256Hex(apiKey));
  const now = clock.now();
  if (!found || (found.key.expiresAt && found.key.expiresAt <= now)) return null;
  // The read shows the last recorded use: within the resolution there is nothing to write, and no
  // statement is sent (most requests of a busy key).
  const lastUsed = found.key.lastUsedAt?.getTime() ?? Number.NEGATIVE_INFINITY;
  if (now.getTime() - lastUsed >= LAST_USED_RESOLUTION_MS) await store.touchApiKey(db, found.key.id, now, LAST_USED_RESOLUTION_MS);
  return { user: found.user, apiKeyId: found.key.id, scopes: effectiveScopes(found.key.scopes), expiresAt: found.key.expiresAt };
}
