// Assembles one running service: services, job worker, GraphQL (HTTP, SSE, WebSocket), the REST
// adapter and the health endpoints, on one HTTP server.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { GraphQLError } from 'graphql';
import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import type { WorkerEvents } from 'graphile-worker';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { realTime, type Deps, type TimeDeps } from './deps.js';
import type { Logger } from './logger.js';
import { createSecretBox } from './crypto/secret-box.js';
import { createJwtVerifier } from './auth/jwt.js';
import { createServices, type Services } from './services/index.js';
import { createGraphQLServer } from './graphql/yoga.js';
import { closeCodeFor, connectionRefusal, operationErrors } from './graphql/socket-errors.js';
import { createRestHandler } from './rest/runner.js';
import { operationRunner } from './graphql/operation.js';
import { routes } from './rest/routes/index.js';
import { rawRoutes } from './rest/raw-routes.js';
import { openApiRoute } from './rest/openapi/route.js';
import { schema } from './schema/index.js';
import { AppError, temporarilyUnavailable } from './errors.js';
import { isDatabaseUnavailable } from './db/errors.js';
import { forwardToYoga } from './http/forward.js';
import { createRateLimits, type RateLimitStore } from './http/rate-limit.js';
import type { Authentication } from './auth/authenticate.js';
import { sendAppError, sendError, sendJson } from './http/respond.js';
import { installJobSchema, startWorker, type JobRunner } from './jobs/worker.js';
import { releaseAllJobLocks, startHeartbeat, type Heartbeat } from './jobs/recovery.js';
import { answerClientError, MAX_HEADER_BYTES, requestUrl } from './http/request-line.js';
import { createLocalBus, createPgBus } from './events/bus.js';
import { scheduleHealthSweep } from './jobs/health-sweep.js';
import { createStaticHandler } from './http/static.js';

// The dashboard, built by `npm run build:web`.
const WEB_DIR = fileURLToPath(new URL('../dist/web', import.meta.url));

// The WebSocket close code for a caller over its budget (4xxx codes are the application's; 429 as in HTTP).
const RATE_LIMITED_CLOSE_CODE = 4429;

const socketAuthorization = (params: Record<string, unknown> | undefined) =>
  typeof params?.authorization === 'string' ? params.authorization : null;
import { createMetrics } from './metrics/metrics.js';
import { countTaskTransitions, jobEvents, queueReader } from './metrics/instrument.js';
import { createCors } from './http/cors.js';
import { currentRequest, runInRequest } from './http/request-context.js';
import { observeRequest } from './http/observe-request.js';
import { clientAddress } from './http/client-address.js';
import { metricsAccess } from './http/metrics-access.js';
import { GRAPHIQL_ASSETS, serveGraphiQLAsset } from './graphql/graphiql.js';

// The enveloped execute/subscribe travel to graphql-ws's callbacks in rootValue.
type EnvelopedRoot = { execute(args: unknown): unknown; subscribe(args: unknown): unknown };

export interface App {
  server: http.Server;
  services: Services;
  listen(port?: number, host?: string): Promise<{ port: number; url: string }>;
  close(): Promise<void>;
}

// graphile-worker records a finished job without awaiting the write, so stop() can return before it
// lands. Waiting (briefly) until no job is still locked keeps the database open for those writes.
async function jobCompletionsWritten(database: Database): Promise<void> {
  for (let waited = 0; waited < 2000; waited += 25) {
    const [row] = await database.prisma.$queryRaw<Array<{ locked: bigint }>>`
      SELECT count(*) AS locked FROM graphile_worker.jobs WHERE locked_at IS NOT NULL`.catch(() => [{ locked: 0n }]);
    if (!row || row.locked === 0n) return;
    await new Promise((r) => setTimeout(r, 25));
  }
}

export async function createApp(opts: {
  config: Config;
  database: Database;
  logger: Logger;
  serverKey: Buffer;
  runWorker?: boolean;
  jobEvents?: WorkerEvents;
  // The real clock and retry schedule unless a test passes its own.
  time?: Partial<TimeDeps>;
}): Promise<App> {
  const { config, database, logger } = opts;
  // Across processes through the PostgreSQL server; the embedded database has a single process.
  const metrics = createMetrics({ defaults: true });
  metrics.watchQueue(queueReader(database.prisma));
  const bus = database.embedded ? createLocalBus() : await createPgBus(database.url, logger);
  const events = countTaskTransitions(bus, metrics);
  const deps: Deps = {
    ...realTime,
    ...opts.time,
    events,
    metrics,
    config,
    prisma: database.prisma,
    searchPrisma: database.searchPrisma,
    logger,
    secretBox: createSecretBox(opts.serverKey),
    serverKey: opts.serverKey,
    urls: { base: config.publicBaseUrl ?? `http://localhost:${config.port}` },
  };
  const services = createServices(deps);
  const verifyJwt = config.auth.jwksUrl
    ? createJwtVerifier({ jwksUrl: config.auth.jwksUrl, issuer: config.auth.issuer!, audience: config.auth.audience })
    : null;
  const { yoga, contextFor, authenticateHeader } = createGraphQLServer({ services, verifyJwt, logger, production: config.env === 'production' });
  const handleRest = createRestHandler({ runOperation: operationRunner(yoga as never), contextFor, routes });
  const raw = rawRoutes(services);
  // Across processes: Redis when configured, else the PostgreSQL server; the embedded database has one process.
  const store: RateLimitStore = config.rateLimit.redisUrl
    ? { kind: 'redis', url: config.rateLimit.redisUrl }
    : database.embedded
      ? { kind: 'memory' }
      : { kind: 'postgres', url: database.url };
  const limits = await createRateLimits({ ...config.rateLimit, store }, logger);
  const serveStatic = createStaticHandler({ dir: WEB_DIR, jwtSignIn: verifyJwt !== null });
  raw.push(openApiRoute({ schema, routes, rawRoutes: [...raw], baseUrl: () => deps.urls.base }));
  const cors = createCors(config.corsOrigins);

  await installJobSchema(database.url, logger);

  // Counts one request or subscription against the caller's budget (http/rate-limit.ts): the user's, else
  // the address's, or the address's failed-authentication budget when the credentials did not verify.
  const countCaller = (authentication: Authentication | undefined, address: string | undefined) =>
    limits.check({
      principal: authentication?.principal ?? null,
      authFailed: authentication ? authentication.authError !== null : false,
      address: address ?? '',
    });
  const overBudget = (retryAfterSeconds: number) => `too many requests; retry in ${retryAfterSeconds}s`;

  // Authenticates the caller once and counts the request against its budget. Returns null when the
  // request was refused with 429; the headers of the budget go on every answer.
  async function admit(req: IncomingMessage, res: ServerResponse): Promise<{ authentication: Authentication | undefined } | null> {
    // A look-up that breaks (database down) is counted by address here and left to fail again inside
    // the GraphQL pipeline, which answers and logs it in the shape of the endpoint.
    const authentication = await authenticateHeader(req.headers.authorization).catch(() => undefined);
    const decision = await countCaller(authentication, clientAddress(req, config.rateLimit.trustedProxyHops));
    if (decision) for (const [name, value] of Object.entries(decision.headers)) res.setHeader(name, value);
    if (decision && !decision.allowed) {
      sendError(res, { code: 'RATE_LIMITED', message: overBudget(decision.retryAfterSeconds) });
      return null;
    }
    return { authentication };
  }

  // Paths that are their own route template in logs and metrics (REST routes name themselves in the runner).
  const fixedPaths = new Set(['/healthz', '/readyz', '/metrics', '/graphql', ...raw.map((r) => r.path)]);

  const mayScrape = metricsAccess(config.metricsToken);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = requestUrl(req.url);
    const path = url.pathname;
    if (fixedPaths.has(path)) currentRequest()!.route = path;
    if ((path === '/v1' || path.startsWith('/v1/') || path === '/graphql') && cors.handle(req, res)) return;
    if (path === '/healthz') return sendJson(res, 200, { status: 'ok' });
    if (path === '/metrics') {
      if (!mayScrape(req.headers.authorization)) {
        return sendError(res, { code: 'UNAUTHENTICATED', message: 'the metrics need the bearer token set in METRICS_TOKEN' }, { 'www-authenticate': 'Bearer' });
      }
      res.writeHead(200, { 'content-type': metrics.registry.contentType });
      return void res.end(await metrics.registry.metrics());
    }
    if (path === '/readyz') {
      try {
        await database.prisma.$queryRaw`SELECT 1`;
        return sendJson(res, 200, { status: 'ready' });
      } catch {
        return sendJson(res, 503, { status: 'unavailable', error: { code: 'UNAVAILABLE', message: 'database unreachable' } });
      }
    }
    if (path.startsWith(GRAPHIQL_ASSETS) && config.env !== 'production') {
      currentRequest()!.route = GRAPHIQL_ASSETS;
      return serveGraphiQLAsset(path, res);
    }
    const rawRoute = raw.find((r) => r.method === req.method && r.path === path);
    if (rawRoute) return rawRoute.handle(req, res);
    if (path === '/v1' || path.startsWith('/v1/')) {
      const admitted = await admit(req, res);
      if (!admitted) return;
      return handleRest(req, res, url, admitted.authentication);
    }
    if (path === '/graphql') {
      const admitted = await admit(req, res);
      if (!admitted) return;
      return forwardToYoga(yoga, req, res, url, { authentication: admitted.authentication });
    }
    if (await serveStatic(req, res, path)) return;
    sendError(res, { code: 'NOT_FOUND', message: `no such endpoint: ${path}` });
  }

  const server = http.createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => {
    runInRequest(observeRequest(req, res, logger, metrics), () => handle(req, res)).catch((error: unknown) => {
      if (error instanceof AppError) return sendAppError(res, error);
      if (isDatabaseUnavailable(error) && !res.headersSent) {
        logger.warn({ err: error, path: req.url?.split('?')[0] }, 'database unavailable');
        return sendAppError(res, temporarilyUnavailable());
      }
      logger.error({ err: error, path: req.url?.split('?')[0] }, 'request failed');
      if (!res.headersSent) sendError(res, { code: 'INTERNAL', message: 'internal error' });
      else res.destroy();
    });
  });

  server.on('clientError', answerClientError);

  const wss = new WebSocketServer({ server, path: '/graphql' });
  // Sockets go through yoga's envelop pipeline, so they get the same context, auth and error masking.
  const wsServer = useServer(
    {
      execute: (args) => (args.rootValue as EnvelopedRoot).execute(args) as never,
      subscribe: (args) => (args.rootValue as EnvelopedRoot).subscribe(args) as never,
      // Credentials are checked when the socket opens: ones that do not verify close it with 4401.
      onConnect: async (ctx) => {
        try {
          await contextFor(socketAuthorization(ctx.connectionParams));
          return true;
        } catch (error) {
          const close = connectionRefusal(error, logger);
          ctx.extra.socket.close(close.code, close.reason);
          return false;
        }
      },
      onSubscribe: async (ctx, _id, params) => {
        try {
          const { schema, execute, subscribe, parse, validate } = yoga.getEnveloped({
            ...ctx,
            req: ctx.extra.request,
            socket: ctx.extra.socket,
            params,
          });
          const authorization = socketAuthorization(ctx.connectionParams);
          const authentication = await authenticateHeader(authorization);
          // Every subscription counts against the caller's budget, as a request would.
          const decision = await countCaller(authentication, clientAddress(ctx.extra.request, config.rateLimit.trustedProxyHops));
          if (decision && !decision.allowed) {
            const message = overBudget(decision.retryAfterSeconds);
            ctx.extra.socket.close(RATE_LIMITED_CLOSE_CODE, message);
            return [new GraphQLError(message, { extensions: { code: 'RATE_LIMITED', retryAfterSeconds: decision.retryAfterSeconds } })];
          }
          const contextValue = await contextFor(authorization, authentication);
          const args = {
            schema,
            operationName: params.operationName,
            document: parse(params.query),
            variableValues: params.variables,
            contextValue,
            rootValue: { execute, subscribe },
          };
          const errors = validate(args.schema, args.document);
          if (errors.length) return errors;
          return args as never;
        } catch (error) {
          const close = closeCodeFor(error);
          if (close) ctx.extra.socket.close(close.code, close.reason);
          return operationErrors(error, logger);
        }
      },
    },
    wss,
  );

  let worker: JobRunner | null = null;
  let heartbeat: Heartbeat | null = null;
  if (opts.runWorker !== false) {
    if (database.embedded) {
      // This process owns the embedded database: a lock can only be left over from a crash.
      const released = await releaseAllJobLocks(database.prisma);
      if (released > 0) logger.warn({ released }, 'released jobs locked before a crash');
    }
    worker = await startWorker({
      connectionString: database.url,
      services,
      logger,
      concurrency: config.worker.concurrency,
      pollIntervalMs: config.worker.pollIntervalMs,
      events: jobEvents(metrics, opts.jobEvents),
    });
    if (!database.embedded) {
      heartbeat = await startHeartbeat({
        db: database.prisma,
        poolId: worker.poolId,
        intervalMs: config.worker.heartbeatIntervalMs,
        deadAfterMs: config.worker.deadAfterMs,
        logger,
      });
    }
    // The periodic health sweep reschedules itself; this starts the chain (a no-op when one is queued).
    await scheduleHealthSweep(database.prisma, new Date(Date.now() + config.health.checkIntervalSeconds * 1000), 'preserve_run_at');
  }

  return {
    server,
    services,
    async listen(port = config.port, host = config.host) {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve());
      });
      const bound = (server.address() as AddressInfo).port;
      if (!config.publicBaseUrl) deps.urls.base = `http://localhost:${bound}`;
      return { port: bound, url: `http://127.0.0.1:${bound}` };
    },
    async close() {
      // Stop taking connections; end the subscribers' streams, which never end by themselves (SSE
      // responses finish, WebSocket subscriptions complete); let the requests in flight finish; then
      // stop jobs. The database closes last.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      events.endSubscriptions();
      await wsServer.dispose();
      // A keep-alive connection becomes idle when its last response (an SSE stream too) has finished.
      server.closeIdleConnections();
      const idle = setInterval(() => server.closeIdleConnections(), 50);
      await closed.finally(() => clearInterval(idle));
      if (worker) {
        await worker.runner.stop();
        await worker.runner.promise.catch(() => {});
        await jobCompletionsWritten(database);
      }
      await heartbeat?.stop();
      await events.close();
      await limits.close();
    },
  };
}
