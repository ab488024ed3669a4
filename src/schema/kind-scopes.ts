// Scopes on types, not only on root fields: data of a kind (a task, a delivery, an API key) is read
// through whatever path reaches it (`task { deliveries }`, `agentDeliveries { task }`), so each type of
// a scoped kind names the scopes that may see it. Its read scope, or its write scope: a write answers
// with what it wrote (createTask's task). A refusal names the read scope.
import type { Scope } from '../auth/scopes.js';
import type { Context } from './context.js';

export function readableWith(read: Scope, write?: Scope) {
  return (_parent: unknown, ctx: Context) =>
    ctx.viewer !== null && (ctx.scopes.includes(read) || (write !== undefined && ctx.scopes.includes(write))) ? true : { scope: read };
}
