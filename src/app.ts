// The composition root of one running service: builds the services, the job worker, GraphQL (HTTP, SSE,
// WebSocket), the REST adapter and the health endpoints, wires them onto one HTTP server, and closes
// them in order.
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { WorkerEvents } from 'graphile-worker';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { realTime, type Deps, type TimeDeps } from './deps.js';
import { cachedResolver } from './delivery/dns-cache.js';
import { resolveWithSystemDns } from './delivery/url-guard.js';
import type { Logger } from './logger.js';
import { createSecretBox } from './crypto/secret-box.js';
import { createJwtVerifier } from './auth/jwt.js';
import { createServices } from './composition.js';
import type { Services } from './services/index.js';
import { createGraphQLServer } from './graphql/yoga.js';
import { startWebSocketServer } from './graphql/ws-server.js';
import { createRouteExecutor, restRoutes } from './rest/runner.js';
import { createMcpRoute } from './mcp/handler.js';
import { authRoutes } from './http/routes/auth.js';
import { createA2ARoute } from './a2a/route.js';
import { taskFollower } from './a2a/updates.js';
import { streamOwner } from './graphql/stream-owner.js';
import { a2aPushRoute } from './a2a/agent-push-route.js';
import { fileRoutes } from './rest/file-routes.js';
import { operationRunner } from './graphql/operation.js';
import { routes } from './rest/routes/index.js';
import { rawRoutes } from './rest/raw-routes.js';
import { openApiRoutes } from './rest/openapi/route.js';
import { schema } from './schema/index.js';
import { createRateLimits } from './http/rate-limit.js';
import { createAdmission, rateLimitStore } from './http/admission.js';
import { createRouter, servedOperations } from './http/router.js';
import { healthRoutes } from './http/health-routes.js';
import type { HttpRoute } from './http/route.js';
import type { ProtocolRoute } from './http/protocol-route.js';
import { createHttpServer } from './http/server.js';
import { createStaticHandler } from './http/static.js';
import { createCors } from './http/cors.js';
import { projectRoot } from './project-root.js';
import { installJobSchema } from './worker/worker.js';
import { startJobs, type RunningJobs } from './worker/start.js';
import { createLocalBus, createPgBus } from './events/bus.js';
import { createLiveStreams } from './graphql/live-streams.js';
import { createMetrics } from './metrics/metrics.js';
import { countTaskTransitions, jobEvents, queueReader } from './metrics/instrument.js';
import { answersQueries } from './db/reachability.js';

// The dashboard, built by `npm run build:web`.
const WEB_DIR = path.join(projectRoot, 'dist/web');

export interface App {
  server: http.Server;
  services: Services;
  // Every HTTP route the router serves (each is an operation of the OpenAPI document).
  routes: readonly HttpRoute[];
  // The other protocols' endpoints it serves (MCP, A2A), each with its operations of the document.
  protocols: readonly ProtocolRoute[];
  listen(port?: number, host?: string): Promise<{ port: number; url: string }>;
  // From now on /readyz answers 503; everything else is served as before (see SHUTDOWN_DRAIN_MS).
  drain(): void;
  close(): Promise<void>;
}

export async function createApp(opts: {
  config: Config;
  database: Database;
  logger: Logger;
  serverKey: Buffer;
  // Overrides RUN_JOBS (config.worker.run) for a test.
  runWorker?: boolean;
  jobEvents?: WorkerEvents;
  // The real clock and retry schedule unless a test passes its own.
  time?: Partial<TimeDeps>;
}): Promise<App> {
  const { config, database, logger } = opts;
  const metrics = createMetrics({ defaults: true });
  metrics.watchQueue(queueReader(database.prisma));
  // Across processes through the PostgreSQL server; the embedded database has a single process.
  const bus = database.embedded ? await createLocalBus({ url: database.url, listen: true, logger }) : await createPgBus(database.url, logger);
  const events = countTaskTransitions(bus, metrics);
  const time: TimeDeps = { ...realTime, ...opts.time };
  const deps: Deps = {
    ...time,
    resolveHost: cachedResolver(resolveWithSystemDns, time.clock),
    events,
    metrics,
    config,
    prisma: database.prisma,
    sql: database.sql,
    searchSql: database.searchSql,
    logger,
    secretBox: createSecretBox(opts.serverKey),
    serverKey: opts.serverKey,
    urls: { base: config.publicBaseUrl ?? `http://localhost:${config.port}` },
  };
  const services = createServices(deps);
  const verifyJwt = config.auth.jwksUrl
    ? createJwtVerifier({ jwksUrl: config.auth.jwksUrl, issuer: config.auth.issuer!, audience: config.auth.audience })
    : null;
  const { yoga, contextFor, authenticateHeader, maskError } = createGraphQLServer({ services, verifyJwt, logger, production: config.env === 'production' });
  const limits = await createRateLimits({ ...config.rateLimit, store: rateLimitStore(config, database) }, logger);
  const admission = createAdmission({ limits, authenticateHeader, trustedProxyHops: config.rateLimit.trustedProxyHops, baseUrl: () => deps.urls.base });

  // Open subscriptions of this process; a key revoked in any process ends the ones it opened here.
  const streams = createLiveStreams({ ...config.subscriptions, clock: deps.clock });
  events.onRevokedKey((credentialId) => streams.revokeKey(credentialId));

  await installJobSchema(database.url, logger);

  let draining = false;
  const runOperation = operationRunner(yoga as never, maskError);
  const execute = createRouteExecutor({ runOperation, routes });
  // Every HTTP route, in the order they are tried: a route that claims some requests of a method and
  // path (a push at the task callback) before the one answering the rest.
  const httpRoutes: HttpRoute[] = [
    // First: /healthz is the cheapest request, matched before any other template is tried.
    ...healthRoutes({ metrics, metricsToken: config.metricsToken, draining: () => draining, databaseReachable: () => answersQueries(database.prisma) }),
    ...authRoutes({ services, admission, authenticateHeader, baseUrl: () => deps.urls.base }),
    a2aPushRoute(() => services.deliveries.a2a),
    ...fileRoutes(services.files),
    ...rawRoutes(services),
    ...restRoutes({ runOperation, contextFor, routes, baseUrl: () => deps.urls.base }),
  ];
  const protocols = [
      createMcpRoute({ routes, execute, contextFor, logger, origins: () => [deps.urls.base, ...config.corsOrigins], baseUrl: () => deps.urls.base }),
      createA2ARoute({
        execute,
        runOperation,
        follow: taskFollower(yoga as never),
        contextFor,
        baseUrl: () => deps.urls.base,
        jwt: verifyJwt !== null,
        blockingWaitMs: config.a2aBlockingWaitMs,
        pushes: services.a2aPushes,
        openStream: (req, authentication, end) => streams.open(streamOwner(authentication, req, admission), end),
        logger,
      }),
  ];
  const served = () => servedOperations({ routes: httpRoutes, protocols });
  httpRoutes.push(...openApiRoutes({ schema, routes: served, baseUrl: () => deps.urls.base }));
  const route = createRouter({
    routes: httpRoutes,
    protocols,
    yoga,
    admission,
    cors: createCors(config.corsOrigins),
    serveStatic: createStaticHandler({ dir: WEB_DIR, jwtSignIn: verifyJwt !== null, stripe: config.stripe.secretKey !== null }),
    graphiql: config.env !== 'production',
    streams,
    baseUrl: () => deps.urls.base,
  });
  const server = createHttpServer(route, { logger, metrics });
  const sockets = startWebSocketServer({ server, yoga, contextFor, authenticateHeader, admission, streams, logger, baseUrl: () => deps.urls.base });

  const jobs: RunningJobs | null =
    (opts.runWorker ?? config.worker.run) ? await startJobs({ config, database, services, logger, events: jobEvents(metrics, opts.jobEvents) }) : null;

  return {
    server,
    services,
    routes: httpRoutes,
    protocols,
    async listen(port = config.port, host = config.host) {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve());
      });
      const bound = (server.address() as AddressInfo).port;
      if (!config.publicBaseUrl) deps.urls.base = `http://localhost:${bound}`;
      return { port: bound, url: `http://127.0.0.1:${bound}` };
    },
    drain: () => void (draining = true),
    async close() {
      draining = true;
      // Stop taking connections; end the subscribers' streams, which never end by themselves (SSE
      // responses finish, WebSocket subscriptions complete); let the requests in flight finish; then
      // stop jobs. The database closes last.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      events.endSubscriptions();
      await sockets.dispose();
      // A keep-alive connection becomes idle when its last response (an SSE stream too) has finished.
      server.closeIdleConnections();
      const idle = setInterval(() => server.closeIdleConnections(), 50);
      await closed.finally(() => clearInterval(idle));
      await jobs?.stop();
      await events.close();
      await limits.close();
      await services.files.storage.close();
    },
  };
}
