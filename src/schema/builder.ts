import SchemaBuilder from '@pothos/core';
import PrismaPlugin from '@pothos/plugin-prisma';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import ValidationPlugin from '@pothos/plugin-validation';
import type PrismaTypes from '../generated/pothos-prisma-types.js';
import { getDatamodel } from '../generated/pothos-prisma-types.js';
import { forbidden, unauthenticated } from '../errors.js';
import { invalidInput } from '../services/validation.js';
import type { Context } from './context.js';

export const builder = new SchemaBuilder<{
  Context: Context;
  PrismaTypes: PrismaTypes;
  AuthScopes: { user: boolean; admin: boolean };
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
    authScopes: (ctx) => ({ user: ctx.viewer !== null, admin: ctx.viewer?.isAdmin === true }),
    unauthorizedError: (_parent, ctx) => (ctx.viewer ? forbidden() : unauthenticated()),
  },
});

builder.queryType({});
builder.mutationType({});
