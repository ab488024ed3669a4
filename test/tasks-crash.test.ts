// Crash safety: the server is killed with SIGKILL while deliveries wait in the queue. After a restart
// every matched task is delivered, and no task whose 2xx was recorded is delivered again.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { killAll, runCli, startServerProcess, type ServerProcess } from './support/processes.js';
import { startTestAgent, type TestAgent } from './support/agent.js';
import { apiClient } from './support/http.js';

let dataDir: string;
let db: TestDatabase | null = null;
let env: Record<string, string>;
let agentHttp: TestAgent;
let proc: ServerProcess | undefined;
// Quick polling, so retries and recovery are seen soon after they are due.
const quick = { WORKER_POLL_INTERVAL_MS: '100', RATE_LIMIT_PER_MINUTE: '0' };

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'tm-crash-'));
  // With DATABASE_URL the service uses a fresh database on that server; otherwise the embedded one.
  if (process.env.DATABASE_URL) db = await createTestDatabase();
  env = { DATA_DIR: dataDir, SECRET_KEY: 'b'.repeat(64), ...quick, ...(db ? { DATABASE_URL: db.url } : {}) };
  agentHttp = await startTestAgent();
});
afterAll(async () => {
  await killAll([proc]);
  await agentHttp?.close();
  await db?.close();
  await rm(dataDir, { recursive: true, force: true });
});

it('delivers every queued task after a SIGKILL and restart, and none twice after its 2xx', async () => {
  proc = await startServerProcess(env);
  const user = JSON.parse((await runCli(['user', 'create', '--email', 'crash@example.com', '--json'], env)).stdout) as { apiKey: string };
  let api = apiClient(proc.url);
  const agentId = (await api.post('/v1/agents', { key: user.apiKey, body: { name: 'Crashy', endpoint: agentHttp.url } })).body.data.id;

  // The first two tasks are answered 2xx; the next five fail their first attempt and wait 5 s to retry.
  agentHttp.respondWith([200, 200, 500]);
  const ids: string[] = [];
  for (let i = 0; i < 7; i++) {
    ids.push((await api.post('/v1/tasks', { key: user.apiKey, body: { title: `t${i}`, description: 'd', agentId } })).body.data.id);
    await agentHttp.waitFor(i + 1);
  }
  const deliveredBefore = new Set(agentHttp.received.slice(0, 2).map((d) => d.body.taskId));
  for (;;) {
    const statuses = await Promise.all(ids.slice(0, 2).map((id) => api.get(`/v1/tasks/${id}`, { key: user.apiKey }).then((r) => r.body.data.status)));
    if (statuses.every((s) => s === 'in_progress')) break;
    await new Promise((r) => setTimeout(r, 100));
  }

  await proc.stop('SIGKILL');
  agentHttp.respondWith([200]);
  const countBefore = agentHttp.received.length;

  proc = await startServerProcess(env);
  api = apiClient(proc.url);
  const deadline = Date.now() + 60_000;
  let statuses: string[] = [];
  while (Date.now() < deadline) {
    statuses = await Promise.all(ids.map((id) => api.get(`/v1/tasks/${id}`, { key: user.apiKey }).then((r) => r.body.data.status)));
    if (statuses.every((s) => s === 'in_progress')) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  expect(statuses).toEqual(ids.map(() => 'in_progress'));

  // Give any stray duplicate time to arrive, then count deliveries after the restart per task.
  await new Promise((r) => setTimeout(r, 1500));
  const after = agentHttp.received.slice(countBefore).map((d) => d.body.taskId);
  for (const id of deliveredBefore) expect(after).not.toContain(id);
  for (const id of ids.slice(2)) expect(after.filter((x) => x === id)).toHaveLength(1);
}, 180_000);
