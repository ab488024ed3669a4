// Apps connected through OAuth (services/oauth/): the user's list and disconnect, and the consent
// page's two operations (what is asked, and the answer).
import { builder } from './builder.js';
import type { AuthorizationParams } from '../services/oauth/index.js';
import { OAuthError } from '../services/oauth/index.js';
import { invalid, notFound } from '../errors.js';

interface ConnectedApp {
  clientId: string;
  name: string;
  redirectUris: string[];
  scopes: string[];
  connectedAt: Date;
  lastUsedAt: Date | null;
}

const ConnectedAppRef = builder.objectRef<ConnectedApp>('ConnectedApp').implement({
  description: 'An app the user allowed to act for them (OAuth). Disconnecting it ends its tokens at once.',
  fields: (t) => ({
    clientId: t.exposeID('clientId'),
    name: t.exposeString('name'),
    redirectHosts: t.stringList({ resolve: (app) => [...new Set(app.redirectUris.map((uri) => new URL(uri).host))] }),
    scopes: t.exposeStringList('scopes'),
    connectedAt: t.expose('connectedAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true }),
  }),
});

const AuthorizationRequest = builder.inputType('OAuthAuthorizationRequest', {
  description: 'The query parameters of /oauth/authorize, as the consent page received them',
  fields: (t) => ({
    responseType: t.string({ required: false }),
    clientId: t.string({ required: false }),
    redirectUri: t.string({ required: false }),
    codeChallenge: t.string({ required: false }),
    codeChallengeMethod: t.string({ required: false }),
    scope: t.string({ required: false }),
    state: t.string({ required: false }),
    resource: t.string({ required: false }),
  }),
});

const AuthorizationPrompt = builder
  .objectRef<{ clientId?: string; appName?: string; redirectHost?: string; scopes?: string[]; redirectTo?: string }>('OAuthAuthorizationPrompt')
  .implement({
    description: 'What the consent page shows, or (a request the app got wrong) where to send the browser back',
    fields: (t) => ({
      clientId: t.string({ nullable: true, resolve: (p) => p.clientId ?? null }),
      appName: t.string({ nullable: true, resolve: (p) => p.appName ?? null }),
      redirectHost: t.string({ nullable: true, resolve: (p) => p.redirectHost ?? null }),
      scopes: t.stringList({ nullable: true, resolve: (p) => p.scopes ?? null }),
      redirectTo: t.string({ nullable: true, resolve: (p) => p.redirectTo ?? null }),
    }),
  });

type RequestInput = { [K in keyof AuthorizationParams]?: string | null };
const paramsOf = (input: RequestInput): AuthorizationParams => ({
  responseType: input.responseType ?? null,
  clientId: input.clientId ?? null,
  redirectUri: input.redirectUri ?? null,
  codeChallenge: input.codeChallenge ?? null,
  codeChallengeMethod: input.codeChallengeMethod ?? null,
  scope: input.scope ?? null,
  state: input.state ?? null,
  resource: input.resource ?? null,
});

// A request naming no registered app or an unregistered redirect_uri is the page's to show, never to follow.
async function orInvalid<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof OAuthError) throw invalid(error.error === 'invalid_client' ? 'clientId' : 'redirectUri', error.description);
    throw error;
  }
}

builder.queryFields((t) => ({
  connectedApps: t.field({
    type: [ConnectedAppRef],
    authScopes: { scope: 'account' },
    resolve: (_root, _args, ctx) => ctx.services.oauth.connectedApps(ctx.viewer!.id),
  }),
  // Public: the consent page names the app before the person signs in. It tells only what the app
  // registered (its name, its redirect host) and what the request itself asks.
  oauthAuthorization: t.field({
    type: AuthorizationPrompt,
    args: { request: t.arg({ type: AuthorizationRequest, required: true }) },
    resolve: (_root, args, ctx) => orInvalid(() => ctx.services.oauth.describe(paramsOf(args.request))),
  }),
}));

builder.mutationFields((t) => ({
  disconnectApp: t.field({
    type: 'Boolean',
    description: 'Ends every token the app holds for the user at once',
    authScopes: { scope: 'account' },
    args: { clientId: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      if (!(await ctx.services.oauth.disconnect(ctx.viewer!.id, String(args.clientId)))) throw notFound('connected app');
      return true;
    },
  }),
  decideOAuthAuthorization: t.field({
    type: 'String',
    description: 'The user allows or denies the app; answers the URL to send the browser to',
    authScopes: { scope: 'account' },
    args: { request: t.arg({ type: AuthorizationRequest, required: true }), allow: t.arg.boolean({ required: true }) },
    resolve: (_root, args, ctx) => orInvalid(() => ctx.services.oauth.decide(ctx.viewer!, paramsOf(args.request), args.allow)),
  }),
}));
