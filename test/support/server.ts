// Starts the whole service on a loopback port against a fresh test database, as a user would reach it.
import { randomBytes } from 'node:crypto';
import type { WorkerEvents } from 'graphile-worker';
import { createApp, type App } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createPrismaClient, type PrismaClient } from '../../src/db/client.js';
import { createKysely, createSearchSql, destroyPools, type Sql } from '../../src/db/kysely.js';
import type { DestinationStream } from 'pino';
import { createLogger } from '../../src/logger.js';
import type { TimeDeps } from '../../src/deps.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { apiClient, type ApiClient } from './http.js';

export interface TestServer {
  url: string;
  app: App;
  db: TestDatabase;
  prisma: ReturnType<typeof createPrismaClient>;
  // The stores' SQL builder on the same database (db/kysely.ts).
  sql: Sql;
  api: ApiClient;
  // A new user and an API key for it; `name` is what pages show of it (none unless given).
  createUser(email?: string, name?: string): Promise<{ id: string; apiKey: string }>;
  close(): Promise<void>;
}

// logStream: where the service's log lines go (tests that read them); otherwise TEST_LOG_LEVEL decides.
// time: a clock or retry schedule of the test's own (Deps), instead of the real ones.
// wrapPrisma: the client the service gets, made from the test's (e.g. one that counts the queries).
export async function startTestServer(
  env: Record<string, string> = {},
  opts: {
    db?: TestDatabase;
    jobEvents?: WorkerEvents;
    logStream?: DestinationStream;
    time?: Partial<TimeDeps>;
    wrapPrisma?: (prisma: PrismaClient) => PrismaClient;
    // The server key (SECRET_KEY), for processes of one service that must share it; a new one otherwise.
    serverKey?: Buffer;
  } = {},
): Promise<TestServer> {
  const db = opts.db ?? (await createTestDatabase());
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ALLOW_PRIVATE_ENDPOINTS: 'true',
    RATE_LIMIT_PER_MINUTE: '0',
    WORKER_POLL_INTERVAL_MS: '100',
    ...env,
  });
  // Prepared statements as the service uses them on a PostgreSQL server (the CI's second run).
  const preparedStatements = db.kind === 'postgresql' && config.databasePreparedStatements;
  const own = createPrismaClient(db.url, 5, { preparedStatements });
  const prisma = opts.wrapPrisma ? opts.wrapPrisma(own) : own;
  const sql = createKysely(db.url, 5, { preparedStatements, server: db.kind === 'postgresql' });
  const searchSql = createSearchSql(db.url, 5, sql, preparedStatements);
  const logger = createLogger(config.logLevel, { stream: opts.logStream });
  const app = await createApp({
    config,
    database: { url: db.url, embedded: db.kind === 'pglite', preparedStatements, prisma, sql, searchSql, close: () => own.$disconnect() },
    logger,
    serverKey: opts.serverKey ?? randomBytes(32),
    jobEvents: opts.jobEvents,
    time: opts.time,
  });
  const { url } = await app.listen(0, '127.0.0.1');
  let users = 0;
  return {
    url,
    app,
    db,
    prisma,
    sql,
    api: apiClient(url),
    async createUser(email, name) {
      const { user, apiKey } = await app.services.accounts.createUser({ email: email ?? `user${++users}-${randomBytes(3).toString('hex')}@example.com`, name });
      return { id: user.id, apiKey };
    },
    async close() {
      await app.close();
      await own.$disconnect();
      await destroyPools(sql, searchSql);
      if (!opts.db) await db.close();
    },
  };
}
