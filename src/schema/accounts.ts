import { builder } from './builder.js';
import { apiKeyName } from '../services/accounts.js';

builder.prismaObject('User', {
  fields: (t) => ({
    id: t.exposeID('id'),
    email: t.exposeString('email'),
    name: t.exposeString('name', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.prismaObject('ApiKey', {
  description: 'An API key. The key itself is shown only once, when it is created.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name', { nullable: true }),
    prefix: t.exposeString('prefix', { description: 'The first characters of the key, to tell keys apart' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
  }),
});

const CreatedApiKey = builder.objectRef<{ apiKey: string; id: string }>('CreatedApiKey').implement({
  fields: (t) => ({
    apiKey: t.exposeString('apiKey', { description: 'The key. Store it now: it cannot be shown again.' }),
    id: t.exposeID('id'),
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
    authScopes: { user: true },
    resolve: (query, _root, _args, ctx) => ctx.services.accounts.listApiKeys(ctx.viewer!.id, query),
  }),
}));

builder.mutationFields((t) => ({
  createApiKey: t.field({
    type: CreatedApiKey,
    authScopes: { user: true },
    args: { name: t.arg.string({ required: false }).validate(apiKeyName) },
    resolve: async (_root, args, ctx) => {
      const { apiKey, record } = await ctx.services.accounts.createApiKey(ctx.viewer!.id, args.name ?? null);
      return { apiKey, id: record.id };
    },
  }),
  revokeApiKey: t.prismaField({
    type: 'ApiKey',
    authScopes: { user: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => ctx.services.accounts.revokeApiKey(ctx.viewer!.id, String(args.id), query),
  }),
}));
