// Assembles one running service: services, job worker, GraphQL (HTTP, SSE, WebSocket), the REST
// adapter and the health endpoints, on one HTTP server.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import type { Runner } from 'graphile-worker';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import type { Deps } from './deps.js';
import type { Logger } from './logger.js';
import { createSecretBox } from './crypto/secret-box.js';
import { createJwtVerifier } from './auth/jwt.js';
import { createServices, type Services } from './services/index.js';
import { createGraphQLServer } from './graphql/yoga.js';
import { createRestHandler } from './rest/runner.js';
import { routes } from './rest/routes/index.js';
import { rawRoutes } from './rest/raw-routes.js';
import { openApiRoute } from './rest/openapi/route.js';
import { schema } from './schema/index.js';
import { AppError } from './errors.js';
import { forwardToYoga } from './http/forward.js';
import { createRateLimiter } from './http/rate-limit.js';
import { sendAppError, sendError, sendJson } from './http/respond.js';
import { installJobSchema, startWorker } from './jobs/worker.js';
import { sha256Hex } from './crypto/tokens.js';
import { createLocalBus, createPgBus } from './events/bus.js';
import { scheduleHealthSweep } from './jobs/health-sweep.js';
import { createMetrics } from './metrics/metrics.js';
import { countTaskTransitions, jobEvents, queueReader } from './metrics/instrument.js';
import { createCors } from './http/cors.js';
import { currentRequest, runInRequest } from './http/request-context.js';
import { observeRequest } from './http/observe-request.js';
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

export async function createApp(opts: { config: Config; database: Database; logger: Logger; serverKey: Buffer; runWorker?: boolean }): Promise<App> {
  const { config, database, logger } = opts;
  // Across processes through the PostgreSQL server; the embedded database has a single process.
  const metrics = createMetrics({ defaults: true });
  metrics.watchQueue(queueReader(database.prisma));
  const bus = database.embedded ? createLocalBus() : await createPgBus(database.url, logger);
  const events = countTaskTransitions(bus, metrics);
  const deps: Deps = {
    events,
    metrics,
    config,
    prisma: database.prisma,
    logger,
    secretBox: createSecretBox(opts.serverKey),
    serverKey: opts.serverKey,
    urls: { base: config.publicBaseUrl ?? `http://localhost:${config.port}` },
  };
  const services = createServices(deps);
  const verifyJwt = config.auth.jwksUrl
    ? createJwtVerifier({ jwksUrl: config.auth.jwksUrl, issuer: config.auth.issuer!, audience: config.auth.audience })
    : null;
  const { yoga, contextFor } = createGraphQLServer({ services, verifyJwt, logger, production: config.env === 'production' });
  const handleRest = createRestHandler({ yoga: yoga as never, routes });
  const raw = rawRoutes(services);
  raw.push(openApiRoute({ schema, routes, rawRoutes: [...raw], baseUrl: () => deps.urls.base }));
  const limiter = createRateLimiter(config.rateLimitPerMinute);
  const cors = createCors(config.corsOrigins);

  await installJobSchema(database.url, logger);

  function limited(req: IncomingMessage, res: ServerResponse): boolean {
    const auth = req.headers.authorization;
    const key = auth ? `k:${sha256Hex(auth)}` : `a:${req.socket.remoteAddress ?? 'unknown'}`;
    const wait = limiter.take(key);
    if (wait === null) return false;
    sendError(res, { code: 'RATE_LIMITED', message: `too many requests; retry in ${wait}s` }, { 'retry-after': String(wait) });
    return true;
  }

  // Paths that are their own route template in logs and metrics (REST routes name themselves in the runner).
  const fixedPaths = new Set(['/healthz', '/readyz', '/metrics', '/graphql', ...raw.map((r) => r.path)]);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://service.internal');
    const path = url.pathname;
    if (fixedPaths.has(path)) currentRequest()!.route = path;
    if ((path === '/v1' || path.startsWith('/v1/') || path === '/graphql') && cors.handle(req, res)) return;
    if (path === '/healthz') return sendJson(res, 200, { status: 'ok' });
    if (path === '/metrics') {
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
      if (limited(req, res)) return;
      return handleRest(req, res, url);
    }
    if (path === '/graphql') {
      if (limited(req, res)) return;
      return forwardToYoga(yoga, req, res, url);
    }
    sendError(res, { code: 'NOT_FOUND', message: `no such endpoint: ${path}` });
  }

  const server = http.createServer((req, res) => {
    runInRequest(observeRequest(req, res, logger, metrics), () => handle(req, res)).catch((error: unknown) => {
      if (error instanceof AppError) return sendAppError(res, error);
      logger.error({ err: error, path: req.url?.split('?')[0] }, 'request failed');
      if (!res.headersSent) sendError(res, { code: 'INTERNAL', message: 'internal error' });
      else res.destroy();
    });
  });

  const wss = new WebSocketServer({ server, path: '/graphql' });
  // Sockets go through yoga's envelop pipeline, so they get the same context, auth and error masking.
  const wsServer = useServer(
    {
      execute: (args) => (args.rootValue as EnvelopedRoot).execute(args) as never,
      subscribe: (args) => (args.rootValue as EnvelopedRoot).subscribe(args) as never,
      onSubscribe: async (ctx, _id, params) => {
        const { schema, execute, subscribe, parse, validate } = yoga.getEnveloped({
          ...ctx,
          req: ctx.extra.request,
          socket: ctx.extra.socket,
          params,
        });
        const contextValue = await contextFor(
          typeof ctx.connectionParams?.authorization === 'string' ? ctx.connectionParams.authorization : null,
        );
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
      },
    },
    wss,
  );

  let worker: Runner | null = null;
  if (opts.runWorker !== false) {
    worker = await startWorker({
      connectionString: database.url,
      services,
      logger,
      events: jobEvents(metrics),
      concurrency: config.worker.concurrency,
      pollIntervalMs: config.worker.pollIntervalMs,
    });
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
      // Stop taking requests, let the ones in flight finish, then stop jobs; the database closes last.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await wsServer.dispose();
      await closed;
      if (worker) {
        await worker.stop();
        await worker.promise.catch(() => {});
        await jobCompletionsWritten(database);
      }
      await events.close();
    },
  };
}
