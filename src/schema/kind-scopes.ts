// Scopes on types, not only on root fields: data of a kind (a task, a delivery, an API key) is read
// through whatever path reaches it (`task { deliveries }`, `agentDeliveries { task }`), so each type of
// a scoped kind names the scopes that may see it. Its read scope, or its write scope: a write answers
// with what it wrote (createTask's task). A refusal names the read scope.
import type { Scope } from '../auth/scopes.js';
import type { Context } from './context.js';

const allowed = (ctx: Context, read: Scope, write: Scope | undefined) =>
  ctx.viewer !== null && (ctx.scopes.includes(read) || (write !== undefined && ctx.scopes.includes(write))) ? true : { scope: read };

export function readableWith(read: Scope, write?: Scope) {
  return (_parent: unknown, ctx: Context) => allowed(ctx, read, write);
}

// The same rule on the fields that return a kind instead of on its type: the plugin checks a type's
// scopes by wrapping every field of the type, which for a task's ~40 fields cost REST's task answers more
// than the rest of their execution (and kept graphql-jit from reading its columns inline). Every field
// whose type is that kind states it, or a scope of the kind of its own (test/unit/kind-scope-fields.test.ts).
export function fieldsReadableWith(read: Scope, write?: Scope) {
  return (_parent: unknown, _args: unknown, ctx: Context) => allowed(ctx, read, write);
}

// The tasks' rule (schema/tasks.ts's Task): on TaskPage.data, CreateTaskResult.task and Delivery.task;
// the root fields that answer a task ask for tasks:read or tasks:write themselves.
export const readsTasks = fieldsReadableWith('tasks:read', 'tasks:write');
