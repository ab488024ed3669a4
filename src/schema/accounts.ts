import { builder } from './builder.js';
import { readableWith } from './kind-scopes.js';
import { z } from 'zod';
import { apiKeyName, effectiveScopes } from '../services/accounts/index.js';
import { allScopes } from '../auth/scopes.js';
import { insufficientScope } from '../errors.js';

builder.prismaObject('User', {
  fields: (t) => ({
    id: t.exposeID('id'),
    email: t.exposeString('email'),
    name: t.exposeString('name', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    emailProven: t.boolean({
      description: 'False while the address is only claimed by a passkey sign-up: a sign-in link to it opened in another browser releases it (docs/accounts.md)',
      select: { emailUnproven: true },
      resolve: (user) => !user.emailUnproven,
    }),
  }),
});

builder.prismaObject('ApiKey', {
  authScopes: readableWith('account'),
  description: 'An API key. The key itself is shown only once, when it is created.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name', { nullable: true }),
    prefix: t.exposeString('prefix', { description: 'The first characters of the key, to tell keys apart' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true }),
    scopes: t.stringList({ description: `What the key may do: ${allScopes.join(', ')}`, resolve: (key) => effectiveScopes(key.scopes) }),
  }),
});

interface NewKey {
  apiKey: string;
  id: string;
  name: string | null;
  prefix: string;
  scopes: string[];
  expiresAt: Date | null;
}

const CreatedApiKey = builder.objectRef<NewKey>('CreatedApiKey').implement({
  fields: (t) => ({
    apiKey: t.exposeString('apiKey', { description: 'The key. Store it now: it cannot be shown again.' }),
    id: t.exposeID('id'),
    name: t.exposeString('name', { nullable: true }),
    prefix: t.exposeString('prefix'),
    scopes: t.exposeStringList('scopes'),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true }),
  }),
});

builder.queryFields((t) => ({
  me: t.prismaField({
    type: 'User',
    authScopes: { user: true },
    resolve: (_query, _root, _args, ctx) => ctx.viewer!,
  }),
  apiKeys: t.prismaField({
    type: ['ApiKey'],
    authScopes: { scope: 'account' },
    resolve: (query, _root, _args, ctx) => ctx.prisma.apiKey.findMany({ ...query, where: { userId: ctx.viewer!.id }, orderBy: { createdAt: 'desc' } }),
  }),
}));

builder.mutationFields((t) => ({
  createApiKey: t.field({
    type: CreatedApiKey,
    authScopes: { scope: 'account' },
    args: {
      name: t.arg.string({ required: false }).validate(apiKeyName),
      scopes: t.arg.stringList({ required: false, description: `Leave out for all scopes (${allScopes.join(', ')})` }).validate(z.array(z.string().max(50)).max(20)),
      expiresAt: t.arg({ type: 'DateTime', required: false }),
    },
    resolve: async (_root, args, ctx) => {
      // A key cannot do more than the credential that made it.
      const wider = (args.scopes ?? allScopes).find((scope) => !(ctx.scopes as readonly string[]).includes(scope) && (allScopes as readonly string[]).includes(scope));
      if (wider) throw insufficientScope(wider);
      const { apiKey, record } = await ctx.services.accounts.createApiKey(ctx.viewer!.id, { name: args.name ?? null, scopes: args.scopes ?? null, expiresAt: args.expiresAt ?? null });
      return { apiKey, id: record.id, name: record.name, prefix: record.prefix, scopes: record.scopes, expiresAt: record.expiresAt };
    },
  }),
  revokeApiKey: t.prismaField({
    type: 'ApiKey',
    authScopes: { scope: 'account' },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const { id } = await ctx.services.accounts.revokeApiKey(ctx.viewer!.id, String(args.id));
      return ctx.prisma.apiKey.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
}));
