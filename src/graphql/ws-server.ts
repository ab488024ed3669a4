// GraphQL over WebSocket (graphql-ws) on /graphql of the HTTP server. Sockets go through yoga's envelop
// pipeline, so they get the same context, auth and error masking as HTTP; every subscription is admitted
// against the caller's budget as a request would be.
import type http from 'node:http';
import { GraphQLError } from 'graphql';
import { WebSocketServer } from 'ws';
import { BODY_LIMIT_BYTES } from '../http/body.js';
import { useServer } from 'graphql-ws/use/ws';
import type { Authentication } from '../services/accounts/authenticate.js';
import type { Logger } from '../logger.js';
import type { Context } from '../schema/context.js';
import { overBudget, type Admission } from '../http/admission.js';
import { closeCodeFor, connectionRefusal, operationErrors } from './socket-errors.js';
import type { createGraphQLServer } from './yoga.js';
import { endMessage, type LiveStreams, type Slot } from './live-streams.js';
import { streamOwner, TOO_MANY_SUBSCRIPTIONS } from './stream-owner.js';
import { credentialOf, fromAnotherOrigin, sessionCookieName } from '../auth/session-cookie.js';

// The WebSocket close code for a caller over its budget (4xxx codes are the application's; 429 as in HTTP).
const RATE_LIMITED_CLOSE_CODE = 4429;
// The close code for credentials that stopped being valid while the socket was open (401 as in HTTP).
const CREDENTIALS_ENDED_CLOSE_CODE = 4401;

// The enveloped execute/subscribe travel to graphql-ws's callbacks in rootValue.
type EnvelopedRoot = { execute(args: unknown): unknown; subscribe(args: unknown): unknown };

// connection_init's authorization, else the browser's session cookie sent with the upgrade request, but
// only from a page of this site (a page elsewhere may open a socket to us; it must not be signed in).
function socketAuthorization(params: Record<string, unknown> | undefined, request: http.IncomingMessage, baseUrl: () => string): string | null {
  if (typeof params?.authorization === 'string') return params.authorization;
  if (fromAnotherOrigin(request.headers, baseUrl())) return null;
  return credentialOf(request.headers, sessionCookieName(baseUrl())) ?? null;
}

export interface GraphQLSocketServer {
  // Completes every subscription and closes every socket.
  dispose(): Promise<void>;
}

export function startWebSocketServer(opts: {
  server: http.Server;
  yoga: ReturnType<typeof createGraphQLServer>['yoga'];
  contextFor(authorization: string | null | undefined, known?: Authentication): Promise<Context>;
  authenticateHeader(authorization: string | null | undefined): Promise<Authentication>;
  admission: Admission;
  streams: LiveStreams;
  logger: Logger;
  baseUrl: () => string;
}): GraphQLSocketServer {
  const { yoga, contextFor, logger } = opts;
  // Each socket's subscriptions by id, each holding a slot in `streams` until it ends.
  const slotsOf = new WeakMap<object, Map<string, Slot>>();
  const releaseAll = (socket: object) => {
    for (const slot of slotsOf.get(socket)?.values() ?? []) slot.release();
    slotsOf.delete(socket);
  };
  // A message is bounded like a request body (ws's default is 100 MiB, buffered whole before it is read).
  const wss = new WebSocketServer({ server: opts.server, path: '/graphql', maxPayload: BODY_LIMIT_BYTES });
  const disposable = useServer(
    {
      execute: (args) => (args.rootValue as EnvelopedRoot).execute(args) as never,
      subscribe: (args) => (args.rootValue as EnvelopedRoot).subscribe(args) as never,
      // Credentials are checked when the socket opens: ones that do not verify close it with 4401.
      // A sign-in that fails is counted against the address's failed-authentication budget, the one HTTP
      // uses, so sockets are no cheaper a way to guess keys; over it, the socket closes with 4429.
      onConnect: async (ctx) => {
        try {
          const authorization = socketAuthorization(ctx.connectionParams, ctx.extra.request, opts.baseUrl);
          const authentication = await opts.authenticateHeader(authorization);
          if (authentication.authError !== null) {
            const decision = await opts.admission.count(authentication, ctx.extra.request);
            if (decision && !decision.allowed) {
              ctx.extra.socket.close(RATE_LIMITED_CLOSE_CODE, overBudget(decision.retryAfterSeconds));
              return false;
            }
          }
          await contextFor(authorization, authentication);
          return true;
        } catch (error) {
          const close = connectionRefusal(error, logger);
          ctx.extra.socket.close(close.code, close.reason);
          return false;
        }
      },
      onSubscribe: async (ctx, id, params) => {
        try {
          const { schema, execute, subscribe, parse, validate } = yoga.getEnveloped({
            ...ctx,
            req: ctx.extra.request,
            socket: ctx.extra.socket,
            params,
          });
          const authorization = socketAuthorization(ctx.connectionParams, ctx.extra.request, opts.baseUrl);
          const authentication = await opts.authenticateHeader(authorization);
          // Every subscription counts against the caller's budget, as a request would.
          const decision = await opts.admission.count(authentication, ctx.extra.request);
          if (decision && !decision.allowed) {
            const message = overBudget(decision.retryAfterSeconds);
            ctx.extra.socket.close(RATE_LIMITED_CLOSE_CODE, message);
            return [new GraphQLError(message, { extensions: { code: 'RATE_LIMITED', retryAfterSeconds: decision.retryAfterSeconds } })];
          }
          const contextValue = await contextFor(authorization, authentication);
          // A subscription holds a slot of its user's and address's; ending its credentials (a revoked
          // key, an expired access token) closes the socket, whose credentials they are.
          const socket = ctx.extra.socket;
          const slot = opts.streams.open(streamOwner(authentication, ctx.extra.request, opts.admission), (reason) =>
            socket.close(CREDENTIALS_ENDED_CLOSE_CODE, endMessage[reason]),
          );
          // Only this subscription is refused: closing the socket would end the ones already admitted.
          if (!slot) {
            return [new GraphQLError(TOO_MANY_SUBSCRIPTIONS, { extensions: { code: 'RATE_LIMITED' } })];
          }
          let slots = slotsOf.get(socket);
          if (!slots) {
            const own = (slots = new Map());
            slotsOf.set(socket, own);
            socket.once('close', () => releaseAll(socket));
          }
          slots.get(id)?.release();
          slots.set(id, slot);
          const args = {
            schema,
            operationName: params.operationName,
            document: parse(params.query),
            variableValues: params.variables,
            contextValue,
            rootValue: { execute, subscribe },
          };
          const errors = validate(args.schema, args.document);
          if (errors.length) {
            slot.release();
            return errors;
          }
          return args as never;
        } catch (error) {
          const close = closeCodeFor(error);
          if (close) ctx.extra.socket.close(close.code, close.reason);
          return operationErrors(error, logger);
        }
      },
      // However a subscription ends (completed, cancelled by the client, the socket closed), its slot is free.
      onComplete: (ctx, id) => {
        const slots = slotsOf.get(ctx.extra.socket);
        slots?.get(id)?.release();
        slots?.delete(id);
      },
    },
    wss,
  );
  return { dispose: async () => void (await disposable.dispose()) };
}
