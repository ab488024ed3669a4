// What every OAuth rule works with: the dependencies, and what they share: the service's own addresses
// (issuer, resources), the error answered in OAuth's terms, new secrets, and the end of a grant.
import { randomBytes } from 'node:crypto';
import type { Deps } from '../../deps.js';
import * as store from '../../stores/oauth-store.js';

export interface OAuthContext {
  deps: Deps;
}

export const ACCESS_TOKEN_PREFIX = 'tma_';
export const REFRESH_TOKEN_PREFIX = 'tmr_';
export const CODE_PREFIX = 'tmc_';

// An error answered to the app in OAuth's own terms (RFC 6749 §5.2), not the API's coded errors.
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
  }
}

export const secret = (prefix: string) => prefix + randomBytes(32).toString('base64url');
export const trimSlash = (url: string) => url.replace(/\/+$/, '');

// The issuer: the service's base URL.
export const base = (ctx: OAuthContext) => trimSlash(ctx.deps.urls.base);

// The resources a token may be asked for: the whole API, or its MCP or A2A endpoint (RFC 8707).
export const resources = (ctx: OAuthContext) => [base(ctx), `${base(ctx)}/`, `${base(ctx)}/mcp`, `${base(ctx)}/a2a`, `${base(ctx)}/graphql`];

async function announceRevoked(ctx: OAuthContext, grantIds: string[]) {
  for (const id of grantIds) {
    await ctx.deps.events.publishRevokedKey(id).catch((error: unknown) => ctx.deps.logger.warn({ err: error }, 'could not announce a revoked app grant'));
  }
}

// Ends grants (by id, or all of a user's to an app): their tokens stop working and their streams close
// now. The ids revoked.
export async function revokeGrants(ctx: OAuthContext, where: { id: string } | { userId: string; clientId: string }): Promise<string[]> {
  const revoked = await store.revokeGrants(ctx.deps.sql, where, ctx.deps.clock.now());
  await announceRevoked(ctx, revoked);
  return revoked;
}
