import SchemaBuilder from '@pothos/core';
import PrismaPlugin from '@pothos/plugin-prisma';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import ValidationPlugin from '@pothos/plugin-validation';
import type PrismaTypes from '../generated/pothos-prisma-types.js';
import { getDatamodel } from '../generated/pothos-prisma-types.js';
import { forbidden, insufficientScope, unauthenticated } from '../errors.js';
import type { Scope } from '../auth/scopes.js';
import { AuthScopeFailureType, type AuthFailure } from '@pothos/plugin-scope-auth';
import { invalidInput } from '../services/validation.js';
import type { Context } from './context.js';

export const builder = new SchemaBuilder<{
  Context: Context;
  PrismaTypes: PrismaTypes;
  // `scope`: a signed-in caller whose credential has that scope (auth/scopes.ts).
  AuthScopes: { user: boolean; admin: boolean; scope: Scope };
  DefaultFieldNullability: false;
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    JSON: { Input: unknown; Output: unknown };
  };
}>({
  plugins: [ScopeAuthPlugin, ValidationPlugin, PrismaPlugin],
  defaultFieldNullability: false,
  prisma: {
    client: (ctx) => ctx.prisma,
    dmmf: getDatamodel(),
    exposeDescriptions: false,
    filterConnectionTotalCount: true,
  },
  // Each input's zod schema is attached to its argument or input type; a failure is the one coded 400.
  validation: { validationError: (failure) => invalidInput(failure.issues) },
  scopeAuth: {
    authorizeOnSubscribe: true,
    authScopes: (ctx) => ({
      user: ctx.viewer !== null,
      admin: ctx.viewer?.isAdmin === true,
      scope: (needed) => ctx.viewer !== null && ctx.scopes.includes(needed),
    }),
    unauthorizedError: (_parent, ctx, _info, result) => {
      if (!ctx.viewer) return unauthenticated();
      const scope = missingScope(result.failure);
      return scope ? insufficientScope(scope) : forbidden();
    },
  },
});

builder.queryType({});
builder.mutationType({});

// The credential scope a failed check asked for, if that is why it failed.
function missingScope(failure: AuthFailure): string | null {
  if (failure.kind === AuthScopeFailureType.AuthScope) return failure.scope === 'scope' ? String(failure.parameter) : null;
  if (failure.kind === AuthScopeFailureType.AnyAuthScopes || failure.kind === AuthScopeFailureType.AllAuthScopes) {
    for (const inner of failure.failures) {
      const scope = missingScope(inner);
      if (scope) return scope;
    }
  }
  return null;
}
