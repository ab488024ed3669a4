// A user's grants to apps: the apps connected, ending them, and the daily prune of what is spent.
import * as store from '../../stores/oauth-store.js';
import { revokeGrants, type OAuthContext } from './context.js';

// How long an expired code or token, or an app nobody connected, is kept before the daily prune removes it.
const PRUNE_AFTER_MS = 86_400_000;

export const connectedApps = (ctx: OAuthContext, userId: string) => store.connectedApps(ctx.deps.sql, userId);

// Ends every grant of the user to the app: its tokens stop working and its streams close now.
export async function disconnect(ctx: OAuthContext, userId: string, clientId: string): Promise<boolean> {
  return (await revokeGrants(ctx, { userId, clientId })).length > 0;
}

// Part of the daily prune job: codes and tokens expired a day ago, and apps a day old nobody connected.
export async function prune(ctx: OAuthContext, now = ctx.deps.clock.now()): Promise<void> {
  const removed = await store.pruneExpired(ctx.deps.sql, new Date(now.getTime() - PRUNE_AFTER_MS));
  if (removed.codes + removed.tokens + removed.apps > 0) ctx.deps.logger.info(removed, 'pruned expired OAuth codes, tokens and unused apps');
}
