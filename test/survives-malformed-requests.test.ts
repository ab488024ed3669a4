// No request, however malformed, ends the service (issue 46): the service runs as its own process (its
// bundle, as `npm start` runs it), the fuzz (scripts/fuzz.ts) sends it every malformed request it knows,
// whole (REST, GraphQL, WebSocket, A2A, MCP, the push callback, sign-in, OAuth, uploads cut short or never
// finished, processor events), and then the same process, by its pid, still answers /healthz.
import { rm } from 'node:fs/promises';
import { afterAll, expect, it } from 'vitest';
import { runFuzz } from '../scripts/fuzz.js';
import { createTestDatabase, testDataDir, usingPostgres, type TestDatabase } from './support/database.js';
import { killAll, startServerProcess, type ServerProcess } from './support/processes.js';
import { createUserOf } from './support/users.js';

const webhookSecret = 'whsec_survival_test_secret_0123456789';
let proc: ServerProcess | undefined;
let db: TestDatabase | null = null;
let dataDir: string | undefined;

afterAll(async () => {
  await killAll([proc]);
  await db?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

it('answers /healthz from the same process after every malformed request the fuzz knows', async () => {
  dataDir = await testDataDir('tm-survival-');
  db = usingPostgres() ? await createTestDatabase() : null;
  const env = {
    DATA_DIR: dataDir,
    SECRET_KEY: 'd'.repeat(64),
    RATE_LIMIT_PER_MINUTE: '0',
    WORKER_POLL_INTERVAL_MS: '100',
    STRIPE_WEBHOOK_SECRET: webhookSecret,
    ...(db ? { DATABASE_URL: db.url } : {}),
  };
  proc = await startServerProcess(env);
  const pid = proc.child.pid;
  const { apiKey } = await createUserOf(env, 'survival@example.com');

  const report = await runFuzz({ url: proc.url, key: apiKey, webhookSecret, maxRequests: 20_000, seconds: 600 });
  // Every part ran (the uploads and the processor events come last) and the service never stopped answering.
  expect(report.stopped ?? false).toBe(false);
  expect(report.byStatus['hung up']).toBeGreaterThan(10);
  expect(report.byTarget['POST /v1/tasks/{id}/files (junk token)']).toBeGreaterThan(10);
  expect(report.byTarget['POST /v1/webhooks/stripe (signed)']).toBeGreaterThan(5);

  const health = await fetch(`${proc.url}/healthz`);
  expect(health.status).toBe(200);
  expect(proc.child.pid).toBe(pid);
  expect(proc.child.exitCode).toBeNull();
  expect(proc.child.signalCode).toBeNull();
}, 900_000);
