// The service with its layers exposed one at a time, for bench/ledger.ts: the real app (createApp, the
// worker off until asked for) behind one node:http server that also answers a few probe paths, each
// adding one layer to the one before:
//   GET  /ledger/bare          node:http alone (a fixed answer, no app code)
//   GET  /healthz              the app's HTTP server: request context, access line, metrics, router
//   GET  /ledger/auth          + authentication (the API key looked up, as admission does)
//   GET  /ledger/list          + the task list's service call and statements, answered as JSON
//   GET  /v1/tasks?limit=1     + the REST adapter's GraphQL execution (the real route)
//   POST /ledger/create        authentication + the create's service call and statements
//   POST /v1/tasks             + the REST adapter's GraphQL execution (the real route)
//   GET  /ledger/event         a task event published on the bus and received back by a subscriber
//   POST /ledger/worker/start|stop   the service's job worker (deliveries, follow-up jobs)
//   POST /ledger/noop/start|stop     graphile-worker alone, with the service's settings, running
//                                    `ledger_noop` jobs that do nothing: its own claim and completion
//   POST /ledger/heap/start|stop     the sampling heap profiler over a phase; stop answers its summary
// Started by bench/ledger.ts with the service's settings in the environment (as scripts/start.mjs would).
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { Logger as GraphileLogger, run, type Runner } from 'graphile-worker';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { openDatabase } from '../../src/db/database.js';
import { loadServerKey } from '../../src/crypto/server-key.js';
import { createApp } from '../../src/app.js';
import { authenticate } from '../../src/services/accounts/authenticate.js';
import { createHttpServer } from '../../src/http/server.js';
import { createMetrics } from '../../src/metrics/metrics.js';
import { sendJson, sendError } from '../../src/http/respond.js';
import { startJobs, type RunningJobs } from '../../src/worker/start.js';
import { workerPreset } from '../../src/worker/worker.js';
import { createTask } from '../../src/services/task-input.js';
import { startSampling, stopSampling } from './allocations.js';

const config = loadConfig();
const logger = createLogger(config.logLevel, { pretty: false });
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  mode: 'own',
  preparedStatements: config.databasePreparedStatements,
  poolSize: config.databasePoolSize,
});
const serverKey = await loadServerKey({ secretKey: config.secretKey, dataDir: config.dataDir });
const app = await createApp({ config, database, logger, serverKey, runWorker: false });
const { services } = app;
const bus = services.deps.events;

const authenticateHeader = (header: string | undefined) =>
  authenticate(header, { accounts: services.accounts, oauth: services.oauth, verifyJwt: null, sessions: services.sessions }, '/v1/tasks');

const readBody = (req: http.IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8').on('data', (c: string) => (text += c));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });

let jobs: RunningJobs | null = null;
let noop: Runner | null = null;

// The probes that run inside the app's own HTTP server wrapper (request context, access line, metrics),
// so each adds to /healthz only what it names.
const probes = createHttpServer(
  async (req, res) => {
    const path = req.url!.split('?')[0];
    if (path === '/ledger/event') {
      const taskId = `tsk_${randomUUID()}`;
      const stop = new AbortController();
      const events = bus.subscribe({ taskId }, stop.signal)[Symbol.asyncIterator]();
      const received = events.next();
      await bus.publish({ taskId, status: 'completed', requesterId: 'usr_ledger', agentOwnerId: null });
      await received;
      stop.abort();
      return sendJson(res, 200, { ok: true });
    }
    const auth = await authenticateHeader(req.headers.authorization);
    if (!auth.viewer) return sendError(res, { code: 'UNAUTHENTICATED', message: auth.authError ?? 'no key' });
    if (path === '/ledger/auth') return sendJson(res, 200, { data: [], nextCursor: null });
    if (path === '/ledger/list') {
      const page = await services.tasks.list(auth.viewer, { role: 'requester', status: null, limit: 1, cursor: null });
      return sendJson(res, 200, page);
    }
    if (path === '/ledger/create') {
      const input = createTask.parse(JSON.parse(await readBody(req)));
      const created = await services.tasks.create(auth.viewer, input, null);
      return sendJson(res, 201, { data: { id: created.taskId } });
    }
    sendError(res, { code: 'NOT_FOUND', message: 'no such probe' });
  },
  { logger, metrics: createMetrics() },
);
const probe = probes.listeners('request')[0] as http.RequestListener;
const serve = app.server.listeners('request')[0] as http.RequestListener;

const control: Record<string, () => Promise<void>> = {
  '/ledger/worker/start': async () => {
    jobs ??= await startJobs({ config, database, services, logger, events: new EventEmitter() });
  },
  '/ledger/worker/stop': async () => {
    await jobs?.stop();
    jobs = null;
  },
  // graphile-worker as the service runs it (src/worker/worker.ts), with a task list of one job that does nothing.
  '/ledger/noop/start': async () => {
    noop ??= await run({
      connectionString: database.url,
      concurrency: config.worker.concurrency,
      pollInterval: config.worker.pollIntervalMs,
      noHandleSignals: true,
      preset: { worker: workerPreset({ concurrency: config.worker.concurrency, preparedStatements: database.preparedStatements }) },
      taskList: { ledger_noop: async () => {} },
      // Quiet, as the service's worker is at LOG_LEVEL=warn (its default logger writes a line per job).
      logger: new GraphileLogger(() => () => {}),
    });
  },
  // bench/ledger.ts --allocations: V8's sampling heap profiler over one phase (bench/ledger/allocations.ts).
  '/ledger/heap/start': startSampling,
  '/ledger/noop/stop': async () => {
    await noop?.stop();
    noop = null;
  },
};

const bare = JSON.stringify({ data: [], nextCursor: null });
const server = http.createServer((req, res) => {
  const url = req.url ?? '/';
  if (url === '/ledger/bare') return void res.writeHead(200, { 'content-type': 'application/json' }).end(bare);
  if (url === '/ledger/heap/stop') {
    stopSampling().then((summary) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(summary)));
    return;
  }
  const act = control[url];
  if (act) {
    act().then(
      () => res.writeHead(204).end(),
      (error: Error) => res.writeHead(500).end(error.message),
    );
    return;
  }
  if (url.startsWith('/ledger/')) return probe(req, res);
  serve(req, res);
});
server.listen(config.port, config.host);
process.on('SIGTERM', () => {
  void (async () => {
    await jobs?.stop();
    await noop?.stop();
    await app.close();
    await database.close();
    process.exit(0);
  })();
});
