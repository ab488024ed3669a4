// A clean shutdown (SIGINT, as Ctrl-C sends) while a job is running leaves no job locked, so the next
// start has nothing to recover and does not report a crash that never happened.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rm } from 'node:fs/promises';
import { afterAll, expect, it } from 'vitest';
import { createTestDatabase, testDataDir, usingPostgres, type TestDatabase } from './support/database.js';
import { killAll, startServerProcess, type ServerProcess } from './support/processes.js';
import { createUserOf } from './support/users.js';
import { apiClient } from './support/http.js';
import { createPrismaClient } from '../src/db/client.js';

let dataDir: string | undefined;
let db: TestDatabase | null = null;
const procs: ServerProcess[] = [];
let agent: Server | undefined;

afterAll(async () => {
  await killAll(procs);
  agent?.closeAllConnections();
  await new Promise((resolve) => agent?.close(resolve) ?? resolve(undefined));
  await db?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

// An agent endpoint that takes the request and never answers: the delivery job stays in flight.
async function silentAgent(): Promise<{ server: Server; url: string; received: Promise<IncomingMessage> }> {
  let onRequest: (req: IncomingMessage) => void = () => {};
  const received = new Promise<IncomingMessage>((resolve) => (onRequest = resolve));
  const server = createServer((req) => onRequest(req));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/tasks`, received };
}

it('releases the lock of a job in flight at SIGINT, so the next start recovers nothing', async () => {
  dataDir = await testDataDir('tm-shutdown-locks-');
  db = usingPostgres() ? await createTestDatabase() : null;
  const env = {
    DATA_DIR: dataDir,
    SECRET_KEY: 'd'.repeat(64),
    RATE_LIMIT_PER_MINUTE: '0',
    // The start's recovery message is what the test looks for.
    LOG_LEVEL: 'info',
    // Far longer than a shutdown may take: only a shutdown that gives up on the job can end in time.
    DELIVERY_TIMEOUT_MS: '120000',
    // It gives up after this long (6 s by default).
    WORKER_STOP_GRACE_MS: '500',
    ...(db ? { DATABASE_URL: db.url } : {}),
  };
  const first = await startServerProcess(env);
  procs.push(first);
  const user = await createUserOf(env, 'locks@example.com');
  const silent = await silentAgent();
  agent = silent.server;
  const api = apiClient(first.url);
  const agentId = (await api.post('/v1/agents', { key: user.apiKey, body: { name: 'Silent', endpoint: silent.url } })).body.data.id;
  expect((await api.post('/v1/tasks', { key: user.apiKey, body: { title: 't', description: 'd', agentId } })).status).toBe(201);
  await silent.received;

  const stopped = await first.stop('SIGINT');
  expect(stopped.code, stopped.stdout.slice(-4000)).toBe(0);
  expect(stopped.stdout).toContain('jobs still running at shutdown are stopped');
  expect(stopped.stdout).toContain('"msg":"stopped"');
  if (db) {
    // A PostgreSQL server is shared: other processes would wait for the silence limit before taking the job.
    const prisma = createPrismaClient(db.url, 1);
    try {
      const [row] = await prisma.$queryRaw<[{ locked: bigint }]>`SELECT count(*) AS locked FROM graphile_worker.jobs WHERE locked_by IS NOT NULL`;
      expect(row.locked).toBe(0n);
    } finally {
      await prisma.$disconnect();
    }
  }

  const second = await startServerProcess(env);
  procs.push(second);
  const restarted = await second.stop('SIGINT');
  expect(restarted.code, restarted.stdout.slice(-4000)).toBe(0);
  expect(restarted.stdout).not.toMatch(/released jobs locked before a crash|released the jobs of a worker that stopped beating/);
}, 120_000);
