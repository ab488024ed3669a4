import type { PrismaClient } from '../db/client.js';
import type { Viewer } from '../services/accounts/index.js';
import type { Services } from '../services/index.js';
import type { Scope } from '../auth/scopes.js';
import type { CredentialKind } from '../services/accounts/authenticate.js';

export interface Context {
  viewer: Viewer | null;
  // What the credential may do (auth/scopes.ts): all for a session or a key made without scopes.
  scopes: readonly Scope[];
  // The credential the caller came with; read only by mutations that outlive the request on its behalf
  // (createFileUpload's link), never by a subscription's fields, so it stays out of resultScope.
  credential?: { kind: CredentialKind; id: string | null };
  services: Services;
  // Used only by the Pothos Prisma plugin to load relations; resolvers go through services.
  prisma: PrismaClient;
}

// What in a context a resolver's answer may depend on. Subscribers whose contexts have the same scope
// are sent one execution's result for the same event (graphql/shared-event-results.ts), so a field
// added to Context that resolvers read must be part of it.
export function resultScope(ctx: Context): string {
  return ctx.viewer ? `user:${ctx.viewer.id}:${ctx.viewer.isAdmin}:${ctx.scopes.join(',')}` : 'anonymous';
}
