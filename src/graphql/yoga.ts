// The GraphQL server: one yoga instance serves /graphql over HTTP and SSE, the WebSocket server, and
// the REST adapter.
import { GraphQLError } from 'graphql';
import { createYoga, maskError as defaultMaskError } from 'graphql-yoga';
import { AppError, temporarilyUnavailable, unauthenticated } from '../errors.js';
import { isDatabaseUnavailable } from '../db/errors.js';
import type { Logger } from '../logger.js';
import { authenticate, type Authentication } from '../services/accounts/authenticate.js';
import { credentialOf, sessionCookieName } from '../auth/session-cookie.js';
import type { JwtVerifier } from '../auth/jwt.js';
import type { Services } from '../services/index.js';
import { schema } from '../schema/index.js';
import { currentRequest } from '../request-context.js';
import { renderOfflineGraphiQL } from './graphiql.js';
import type { Context } from '../schema/context.js';
import { inputGuardPlugin } from './input-guard.js';
import { requestParamsPlugin } from './request-params.js';
import { sharedEventResultsPlugin } from './shared-event-results.js';
import { graphqlLimitPlugins, hideSuggestionsPlugin, withoutSuggestions } from './limits.js';

const isGraphQLError = (e: unknown) => e instanceof Error && e.name === 'GraphQLError';
const isJsonSyntaxError = (e: unknown) => typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'SyntaxError';
const malformedBody = () => new AppError('INVALID_INPUT', 'the body is not valid JSON', { field: 'body', details: { http: { status: 400 } } });

export function createGraphQLServer(opts: { services: Services; verifyJwt: JwtVerifier | null; logger: Logger; production: boolean }) {
  const { services, logger } = opts;

  // `path`: the endpoint the credential is used on (an app's token is bound to one); GraphQL by default.
  const authenticateHeader = (authorization: string | null | undefined, path = '/graphql') =>
    authenticate(authorization, { accounts: services.accounts, oauth: services.oauth, verifyJwt: opts.verifyJwt, sessions: services.sessions }, path);

  // `known`: the caller was already authenticated for rate limiting (http/admission.ts); not done twice.
  async function contextFor(authorization: string | null | undefined, known?: Authentication): Promise<Context> {
    const auth = known ?? (await authenticateHeader(authorization));
    // Credentials that were sent but do not verify are refused outright, even where none are needed.
    if (auth.authError) throw unauthenticated(auth.authError);
    const request = currentRequest();
    if (request && auth.viewer) request.principalId = auth.viewer.id;
    return { viewer: auth.viewer, scopes: auth.scopes, credential: auth.credential, services, prisma: services.deps.prisma };
  }

  // graphql-js may be loaded twice (ESM and CommonJS copies), so errors are recognised by shape, not class.
  // The REST adapter runs its documents outside yoga's pipeline and masks their errors with this too.
  function maskError(error: unknown, message: string, isDev?: boolean): Error {
    const original = (error as { originalError?: unknown }).originalError;
    if (original instanceof AppError) return original;
    // A body that is not JSON: yoga's error carries the parser's own message, with a piece of the
    // body, which is not ours to answer with.
    if (isGraphQLError(error) && isJsonSyntaxError(original ?? (error as GraphQLError).extensions?.originalError)) return malformedBody();
    // Errors of the request itself (syntax, validation, variable coercion) are the caller's to see.
    if (isGraphQLError(error) && (!original || isGraphQLError(original))) {
      const own = error as GraphQLError;
      if (!opts.production) return own;
      return new GraphQLError(withoutSuggestions(own.message), { nodes: own.nodes, path: own.path, extensions: own.extensions });
    }
    if (isDatabaseUnavailable(original ?? error)) {
      logger.warn({ err: original ?? error }, 'database unavailable while resolving');
      return temporarilyUnavailable();
    }
    logger.error({ err: original ?? error }, 'unexpected error while resolving');
    const masked = defaultMaskError(error, message, isDev) as GraphQLError;
    return new GraphQLError('internal error', { nodes: masked.nodes, path: masked.path, extensions: { code: 'INTERNAL' } });
  }

  const yoga = createYoga<object, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    graphiql: !opts.production,
    renderGraphiQL: renderOfflineGraphiQL,
    landingPage: false,
    // CORS is answered before requests reach yoga (http/cors.ts); yoga's default echoes any origin.
    cors: false,
    logging: false,
    plugins: [requestParamsPlugin(), ...graphqlLimitPlugins(), inputGuardPlugin(), sharedEventResultsPlugin(), ...(opts.production ? [hideSuggestionsPlugin()] : [])],
    context: ({ request, connectionParams, authentication }: { request: Request; connectionParams?: Record<string, unknown>; authentication?: Authentication }) => {
      const fromSocket = connectionParams?.authorization;
      if (typeof fromSocket === 'string') return contextFor(fromSocket);
      return contextFor(credentialOf((name) => request.headers.get(name), sessionCookieName(services.deps.urls.base)), authentication);
    },
    maskedErrors: { maskError },
  });

  return { yoga, contextFor, authenticateHeader, maskError };
}
