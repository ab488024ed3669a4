// SHUTDOWN_DRAIN_MS: on SIGTERM the process first answers /readyz with 503 while it still serves
// everything else, so a load balancer takes it out of rotation before it stops taking connections;
// then it shuts down as usual and exits 0.
import { rm } from 'node:fs/promises';
import { afterAll, expect, it } from 'vitest';
import { createTestDatabase, testDataDir, usingPostgres, type TestDatabase } from './support/database.js';
import { killAll, startServerProcess, type ServerProcess } from './support/processes.js';
import { until } from './support/wait.js';

let dataDir: string | undefined;
let db: TestDatabase | null = null;
let proc: ServerProcess | undefined;

afterAll(async () => {
  await killAll([proc]);
  await db?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

it('says it is not ready, keeps serving for the drain time, then exits 0', async () => {
  dataDir = await testDataDir('tm-drain-');
  db = usingPostgres() ? await createTestDatabase() : null;
  // Long enough for the checks below on a loaded machine; the test waits for the exit, not the clock.
  proc = await startServerProcess({ DATA_DIR: dataDir, SECRET_KEY: 'd'.repeat(64), SHUTDOWN_DRAIN_MS: '4000', ...(db ? { DATABASE_URL: db.url } : {}) });
  const readyz = () => fetch(`${proc!.url}/readyz`).then(async (r) => ({ status: r.status, body: await r.json() }));
  expect((await readyz()).status).toBe(200);

  proc.child.kill('SIGTERM');
  const draining = await until('/readyz answers 503', async () => {
    const answer = await readyz();
    return answer.status === 503 ? answer : null;
  });
  expect(draining.body).toMatchObject({ status: 'draining', error: { code: 'UNAVAILABLE' } });
  // Everything else is still served while draining.
  expect((await fetch(`${proc.url}/healthz`)).status).toBe(200);
  const query = await fetch(`${proc.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ __typename }' }) });
  expect(await query.json()).toEqual({ data: { __typename: 'Query' } });

  const finished = await proc.finished;
  expect(finished.code).toBe(0);
}, 60_000);
