// The HTTP entry of one service: GraphiQL's assets, the routes (http/route.ts: health and metrics, REST,
// signing in, OAuth, files, webhooks, documents), the other protocols' endpoints (MCP, A2A), GraphQL over
// HTTP and SSE, then the dashboard's files. All but GraphiQL's assets and the dashboard's files are
// operations of the OpenAPI document (servedOperations).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpRoute } from './route.js';
import { matchRoute } from './route-match.js';
import { GRAPHIQL_ASSETS, serveGraphiQLAsset } from '../graphql/graphiql.js';
import type { Admission } from './admission.js';
import type { EndReason, LiveStreams } from '../graphql/live-streams.js';
import { endMessage } from '../graphql/live-streams.js';
import { streamOwner, TOO_MANY_SUBSCRIPTIONS } from '../graphql/stream-owner.js';
import type { Cors } from './cors.js';
import type { Charge, ProtocolRoute } from './protocol-route.js';
import type { Authentication } from '../services/accounts/authenticate.js';
import { forwardToYoga } from './forward.js';
import { GRAPHQL_OPERATIONS } from './graphql-operations.js';
import { currentRequest } from '../request-context.js';
import { requestUrl } from './request-line.js';
import { sendAppError, sendError, type ErrorFormat } from './respond.js';
import { credentialOf, isForgedCookieRequest, sessionCookieName } from '../auth/session-cookie.js';
import { AppError, noCredential, unauthenticated } from '../errors.js';

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export interface RouterParts {
  // Every route of the service, in the order they are tried (a route that claims requests comes before
  // the one it shares its method and path with).
  routes: HttpRoute[];
  yoga: Parameters<typeof forwardToYoga>[0];
  admission: Admission;
  cors: Cors;
  // Answers from the dashboard's files; false when no file matches.
  serveStatic(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean>;
  graphiql: boolean;
  // Open subscriptions: an SSE stream holds a slot while it is open.
  streams: LiveStreams;
  // Other protocols' endpoints (MCP, A2A), admitted like /v1.
  protocols?: ProtocolRoute[];
  // The service's own address, which a browser's session cookie may be sent from.
  baseUrl: () => string;
}

// The last event of a stream whose credentials ended (a revoked key, an expired access token).
const unauthenticatedEvent = (reason: EndReason) =>
  `event: next\ndata: ${JSON.stringify({ errors: [{ message: endMessage[reason], extensions: { code: 'UNAUTHENTICATED' } }] })}\n\nevent: complete\ndata:\n\n`;

const wantsEventStream = (req: IncomingMessage) => req.headers.accept?.includes('text/event-stream') ?? false;

const isRest = (path: string) => path === '/v1' || path.startsWith('/v1/');

export function createRouter(parts: RouterParts): RequestHandler {
  const { admission, cors } = parts;
  const routes = matchRoute(parts.routes);

  // Counted against the caller's address alone (routes that check their own credentials).
  const admitByAddress = (req: IncomingMessage, res: ServerResponse, format?: ErrorFormat) => admission.charge(undefined, req, res, 1, format);

  // Admits the request as the route says and runs it; an AppError it throws is answered in its format.
  async function run(route: HttpRoute, params: Record<string, string>, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    let authentication: Authentication | undefined;
    if (route.admission === 'caller') {
      const admitted = await admission.admit(req, res, url.pathname);
      if (!admitted) return;
      authentication = admitted.authentication;
    } else if (route.admission === 'address' && !(await admitByAddress(req, res, route.errors))) return;
    const charge: Charge = (requests) => admission.charge(authentication, req, res, requests);
    try {
      if (route.credential === 'caller') {
        const refusal = callerRefusal(authentication, () => !!credentialOf(req.headers, sessionCookieName(parts.baseUrl())));
        if (refusal) throw refusal;
      }
      await route.handle({ req, res, url, params: decodeParams(params), authentication, charge });
    } catch (error) {
      // The client may still be sending a body that will not be read: once answered, the connection ends.
      const unread = !req.complete && hasBody(req);
      if (unread) res.once('finish', () => req.socket.destroy());
      if (!(error instanceof AppError)) throw error;
      if (res.headersSent) return void res.destroy();
      sendAppError(res, error, unread ? { connection: 'close' } : {}, route.errors);
    }
  }

  return async function route(req, res) {
    const url = requestUrl(req.url);
    const path = url.pathname;
    if (path === '/graphql') currentRequest()!.route = path;
    if ((isRest(path) || path === '/graphql') && cors.handle(req, res)) return;
    if (path.startsWith(GRAPHIQL_ASSETS) && parts.graphiql) {
      currentRequest()!.route = GRAPHIQL_ASSETS;
      return serveGraphiQLAsset(path, res);
    }
    // A page of another site cannot make the browser change anything with its session cookie (CSRF), on
    // any route the cookie signs in (REST, GraphQL, files, A2A, MCP).
    if (isForgedCookieRequest(req.method, req.headers, parts.baseUrl())) {
      return sendError(res, { code: 'FORBIDDEN', message: 'a request signed in by the session cookie must come from this site\'s pages' });
    }
    const found = routes(req, url);
    if (found.kind === 'route') {
      currentRequest()!.route = found.route.path;
      return run(found.route, found.params, req, res, url);
    }
    if (found.kind === 'method' && isRest(path)) {
      currentRequest()!.route = found.template;
      return sendError(res, { code: 'METHOD_NOT_ALLOWED', message: `use ${found.allow}` }, { allow: found.allow });
    }
    for (const protocol of parts.protocols ?? []) {
      const template = protocol.match(path, req);
      if (template === null) continue;
      currentRequest()!.route = template;
      if (protocol.ownCredentials) {
        if (!(await admitByAddress(req, res))) return;
        return protocol.handle(req, res, url, undefined, (requests) => admission.charge(undefined, req, res, requests));
      }
      const admitted = await admission.admit(req, res, path);
      if (!admitted) return;
      return protocol.handle(req, res, url, admitted.authentication, (requests) => admission.charge(admitted.authentication, req, res, requests));
    }
    if (isRest(path)) {
      // An unknown path under /v1 is counted like a known one, so probing paths spends the budget too.
      if (!(await admission.admit(req, res, path))) return;
      return sendError(res, { code: 'NOT_FOUND', message: `no such endpoint: ${path}` });
    }
    if (path === '/graphql') {
      const admitted = await admission.admit(req, res, path);
      if (!admitted) return;
      if (!wantsEventStream(req)) return forwardToYoga(parts.yoga, req, res, url, { authentication: admitted.authentication });
      let interrupt: ((lastWords: string) => void) | null = null;
      const slot = parts.streams.open(streamOwner(admitted.authentication, req, admission), (reason) => interrupt?.(unauthenticatedEvent(reason)));
      if (!slot) return sendError(res, { code: 'RATE_LIMITED', message: TOO_MANY_SUBSCRIPTIONS });
      res.on('close', () => slot.release());
      return forwardToYoga(parts.yoga, req, res, url, { authentication: admitted.authentication }, (end) => (interrupt = end)).finally(() => slot.release());
    }
    if (await parts.serveStatic(req, res, path)) return;
    sendError(res, { code: 'NOT_FOUND', message: `no such endpoint: ${path}` });
  };
}

// Every operation the router serves, as the OpenAPI document states them: the routes, GraphQL over HTTP
// and the other protocols' endpoints.
export function servedOperations(parts: Pick<RouterParts, 'routes' | 'protocols'>): Array<Pick<HttpRoute, 'method' | 'path' | 'openapi' | 'claims'>> {
  return [...parts.routes, ...GRAPHQL_OPERATIONS, ...(parts.protocols ?? []).flatMap((protocol) => protocol.operations)];
}

// A route that needs a caller refuses one without credentials that verify before its handler reads the
// body: 401 whatever the body holds, so such a caller learns nothing more, and a large body is not read
// for it. The words are the bad credential's (services/accounts/authenticate.ts), else the missing one's
// (a session that ended is none). `authentication` is undefined only where its look-up broke
// (http/admission.ts): the handler's own look-up answers that, and only then are the headers read again
// for whether a credential was sent.
function callerRefusal(authentication: Authentication | undefined, credentialSent: () => boolean): AppError | null {
  if (authentication?.authError) return unauthenticated(authentication.authError);
  if (authentication ? !authentication.viewer : !credentialSent()) return noCredential();
  return null;
}

const hasBody = (req: IncomingMessage) => req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

// The path's parameters, percent-decoded: a malformed one is the client's input error, named.
function decodeParams(raw: Record<string, string>): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    try {
      params[name] = decodeURIComponent(value);
    } catch {
      throw new AppError('INVALID_INPUT', `${name} is not validly percent-encoded`, { field: name });
    }
  }
  return params;
}
