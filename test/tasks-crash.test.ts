// Crash safety: the server is killed with SIGKILL while deliveries are in flight to a slow agent (sent,
// not yet answered). After a restart every task is delivered, and no task whose 2xx was recorded is
// sent again. On PostgreSQL a second live process also takes over a dead one's jobs, without a restart.
import { rm } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDataDir, usingPostgres, type TestDatabase } from './support/database.js';
import { killAll, startServerProcess, type ServerProcess } from './support/processes.js';
import { createUserOf } from './support/users.js';
import { startTestAgent, type TestAgent } from './support/agent.js';
import { apiClient, type ApiClient } from './support/http.js';
import { until } from './support/wait.js';
import { queueAt, untilNoJobDue } from './support/jobs.js';
import { embeddedSocketUrl } from '../src/db/embedded.js';

// Quick polling and a short silence limit, so recovery is seen soon after it is due.
const quick = {
  WORKER_POLL_INTERVAL_MS: '100',
  RATE_LIMIT_PER_MINUTE: '0',
  WORKER_HEARTBEAT_INTERVAL_MS: '200',
  WORKER_DEAD_AFTER_MS: '1000',
};

const dirs: string[] = [];
const dbs: TestDatabase[] = [];
const procs: ServerProcess[] = [];
const agents: TestAgent[] = [];
const releases: Array<() => void> = [];

afterAll(async () => {
  releases.forEach((release) => release());
  await killAll(procs);
  await Promise.all(agents.map((a) => a.close()));
  await Promise.all(dbs.map((db) => db.close()));
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

// An environment of its own: a data directory, and with DATABASE_URL a fresh database on that server.
async function environment(): Promise<Record<string, string>> {
  const dataDir = await testDataDir('tm-crash-');
  dirs.push(dataDir);
  const db = usingPostgres() ? await createTestDatabase() : null;
  if (db) dbs.push(db);
  return { DATA_DIR: dataDir, SECRET_KEY: 'b'.repeat(64), ...quick, ...(db ? { DATABASE_URL: db.url } : {}) };
}

async function start(env: Record<string, string>): Promise<ServerProcess> {
  const proc = await startServerProcess(env);
  procs.push(proc);
  return proc;
}

async function agentAndOwner(proc: ServerProcess, env: Record<string, string>, email: string) {
  const agentHttp = await startTestAgent();
  agents.push(agentHttp);
  const user = await createUserOf(env, email);
  const api = apiClient(proc.url);
  const agentId = (await api.post('/v1/agents', { key: user.apiKey, body: { name: 'Crashy', endpoint: agentHttp.url } })).body.data.id as string;
  return { agentHttp, key: user.apiKey, agentId };
}

const createTask = (api: ApiClient, key: string, agentId: string, title: string) =>
  api.post('/v1/tasks', { key, body: { title, description: 'd', agentId } }).then((r) => r.body.data.id as string);

function untilAllInProgress(api: ApiClient, key: string, ids: string[]) {
  return until(
    'every task in progress',
    async () => {
      const statuses = await Promise.all(ids.map((id) => api.get(`/v1/tasks/${id}`, { key }).then((r) => r.body.data.status)));
      return statuses.every((s) => s === 'in_progress');
    },
    60_000,
  );
}

// Waits until the service has no delivery job running or due: nothing more will be sent (one scheduled
// for later finds its delivery succeeded and sends nothing).
async function untilNoDeliveryLeft(env: Record<string, string>): Promise<void> {
  const queue = await queueAt(env.DATABASE_URL ?? embeddedSocketUrl(env.DATA_DIR!));
  try {
    await untilNoJobDue(queue, { name: 'task.deliver' }, 60_000);
  } finally {
    await queue.end();
  }
}

// The deliveries the agent received for each task from index `from` on.
const receivedSince = (agentHttp: TestAgent, from: number) => agentHttp.received.slice(from).map((d) => d.body.taskId);

it('delivers every in-flight task after a SIGKILL and restart, and none twice after its 2xx', async () => {
  const env = await environment();
  let proc = await start(env);
  let api = apiClient(proc.url);
  const { agentHttp, key, agentId } = await agentAndOwner(proc, env, 'crash@example.com');

  // Two tasks are delivered and their 2xx recorded before the crash.
  const answered = [await createTask(api, key, agentId, 'answered 1'), await createTask(api, key, agentId, 'answered 2')];
  await untilAllInProgress(api, key, answered);

  // The agent turns slow: the next deliveries are sent and still waiting for an answer at the crash.
  const release = agentHttp.hold();
  releases.push(release);
  const inFlight: string[] = [];
  for (let i = 0; i < 4; i++) inFlight.push(await createTask(api, key, agentId, `in flight ${i}`));
  await agentHttp.waitFor(answered.length + inFlight.length);

  await proc.stop('SIGKILL');
  release();
  const countAtCrash = agentHttp.received.length;

  proc = await start(env);
  api = apiClient(proc.url);
  await untilAllInProgress(api, key, [...answered, ...inFlight]);
  const deliveries = (await api.get(`/v1/agents/${agentId}/deliveries`, { key })).body.data as Array<{ status: string }>;
  expect(deliveries.map((d) => d.status)).toEqual(deliveries.map(() => 'succeeded'));

  // Once no delivery job is running or due no stray duplicate can still come; count what was sent after the crash.
  await untilNoDeliveryLeft(env);
  const after = receivedSince(agentHttp, countAtCrash);
  for (const id of answered) expect(after).not.toContain(id);
  for (const id of inFlight) expect(after.filter((x) => x === id)).toHaveLength(1);
}, 180_000);

it('loses no auto-approval or input timeout that is due at a SIGKILL', async () => {
  // Windows of one second: the jobs fall due while the test watches the first of them finish.
  const env = { ...(await environment()), INPUT_TIMEOUT_SECONDS: '1' };
  let proc = await start(env);
  let api = apiClient(proc.url);
  const { key, agentId } = await agentAndOwner(proc, env, 'timers@example.com');
  const reviewed: string[] = [];
  const waiting: string[] = [];
  for (let i = 0; i < 4; i++) {
    const id = (await api.post('/v1/tasks', { key, body: { title: `review ${i}`, description: 'd', agentId, reviewWindowSeconds: 1 } })).body.data.id as string;
    await api.patch(`/v1/tasks/${id}/complete`, { key, body: { result: { i } } });
    reviewed.push(id);
    const other = await createTask(api, key, agentId, `input ${i}`);
    await api.post(`/v1/tasks/${other}/request-input`, { key, body: { message: 'More?' } });
    waiting.push(other);
  }
  const statusOf = (id: string) => api.get(`/v1/tasks/${id}`, { key }).then((r) => r.body.data.status as string);
  // The first timer has fired: the others are due or running when the process is killed.
  await until('a timer fired', async () => (await Promise.all([...reviewed, ...waiting].map(statusOf))).some((s) => s === 'completed' || s === 'cancelled'), 30_000);
  await proc.stop('SIGKILL');

  proc = await start(env);
  api = apiClient(proc.url);
  await until(
    'every timer fired',
    async () => {
      const statuses = await Promise.all([...reviewed, ...waiting].map(statusOf));
      return statuses.every((s) => s === 'completed' || s === 'cancelled');
    },
    60_000,
  );
  for (const id of reviewed) {
    const task = (await api.get(`/v1/tasks/${id}`, { key })).body.data;
    expect(task).toMatchObject({ status: 'completed', approvedBy: 'auto' });
    const history = (await api.get(`/v1/tasks/${id}/history`, { key })).body.data as Array<{ action: string }>;
    expect(history.filter((h) => h.action === 'approve')).toHaveLength(1);
  }
  for (const id of waiting) {
    expect((await api.get(`/v1/tasks/${id}`, { key })).body.data).toMatchObject({ status: 'cancelled', error: 'input_timeout' });
    const history = (await api.get(`/v1/tasks/${id}/history`, { key })).body.data as Array<{ action: string }>;
    expect(history.filter((h) => h.action === 'input_timeout')).toHaveLength(1);
  }
}, 180_000);

describe.skipIf(!usingPostgres())('two processes on one PostgreSQL', () => {
  it('lets a live process finish the in-flight deliveries of one that was killed, without a restart', async () => {
    const env = await environment();
    const first = await start(env);
    const api = apiClient(first.url);
    const { agentHttp, key, agentId } = await agentAndOwner(first, env, 'crash2@example.com');

    const release = agentHttp.hold();
    releases.push(release);
    const inFlight: string[] = [];
    for (let i = 0; i < 3; i++) inFlight.push(await createTask(api, key, agentId, `in flight ${i}`));
    // All three are being sent by the first process when the second one starts.
    await agentHttp.waitFor(inFlight.length);
    const second = await start(env);

    await first.stop('SIGKILL');
    release();
    const countAtCrash = agentHttp.received.length;

    const secondApi = apiClient(second.url);
    await untilAllInProgress(secondApi, key, inFlight);
    await untilNoDeliveryLeft(env);
    const after = receivedSince(agentHttp, countAtCrash);
    for (const id of inFlight) expect(after.filter((x) => x === id)).toHaveLength(1);
  }, 180_000);
});
