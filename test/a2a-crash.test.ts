// Crash safety of delivery over A2A: the server is killed with SIGKILL while SendMessage calls to an
// @a2a-js/sdk agent are in flight (sent, not yet answered). After a restart every task reaches the agent
// under one messageId (its own id, so the agent can tell a resend from a new task) and completes; none
// is stuck.
import { rm } from 'node:fs/promises';
import { afterAll, expect, it } from 'vitest';
import { TaskState } from '@a2a-js/sdk';
import { createTestDatabase, testDataDir, usingPostgres, type TestDatabase } from './support/database.js';
import { killAll, startServerProcess, type ServerProcess } from './support/processes.js';
import { createUserOf } from './support/users.js';
import { startSdkAgent, type SdkAgent } from './support/a2a-agent.js';
import { apiClient, type ApiClient } from './support/http.js';
import { until } from './support/wait.js';

const quick = { WORKER_POLL_INTERVAL_MS: '100', RATE_LIMIT_PER_MINUTE: '0', WORKER_HEARTBEAT_INTERVAL_MS: '200', WORKER_DEAD_AFTER_MS: '1000' };

const dirs: string[] = [];
const dbs: TestDatabase[] = [];
const procs: ServerProcess[] = [];
let agent: SdkAgent | undefined;
let release: () => void = () => {};

afterAll(async () => {
  release();
  await killAll(procs);
  await agent?.close();
  await Promise.all(dbs.map((db) => db.close()));
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function start(env: Record<string, string>): Promise<ServerProcess> {
  const proc = await startServerProcess(env);
  procs.push(proc);
  return proc;
}

const statuses = (api: ApiClient, key: string, ids: string[]) => Promise.all(ids.map((id) => api.get(`/v1/tasks/${id}`, { key }).then((r) => r.body.data.status as string)));

it('after a SIGKILL with SendMessage calls in flight, every task reaches the agent under one messageId and completes', async () => {
  const dataDir = await testDataDir('tm-a2a-crash-');
  dirs.push(dataDir);
  const db = usingPostgres() ? await createTestDatabase() : null;
  if (db) dbs.push(db);
  const env = { DATA_DIR: dataDir, SECRET_KEY: 'c'.repeat(64), ...quick, ...(db ? { DATABASE_URL: db.url } : {}) };

  // The agent holds its answers until the test lets it go.
  let gate = new Promise<void>((resolve) => (release = resolve));
  agent = await startSdkAgent({ name: 'Crash Crane', pushNotifications: false });
  agent.behave(async (ctx, bus) => {
    await gate;
    const now = new Date().toISOString();
    bus.publish({ kind: 'task', data: { id: ctx.taskId, contextId: ctx.contextId, status: { state: TaskState.TASK_STATE_COMPLETED, message: undefined, timestamp: now }, artifacts: [{ artifactId: 'a', name: 'done', description: '', parts: [{ content: { $case: 'data', value: { ok: true } }, metadata: undefined, filename: '', mediaType: '' }], metadata: undefined, extensions: [] }], history: [], metadata: undefined } });
    bus.finished();
  });

  let proc = await start(env);
  let api = apiClient(proc.url);
  const { apiKey: key } = await createUserOf(env, 'a2a-crash@example.com');
  const imported = await api.post('/v1/agents/import', { key, body: { cardUrl: agent.cardUrl } });
  expect(imported.status).toBe(201);
  const agentId = imported.body.data.id as string;

  const tasks: string[] = [];
  for (let i = 0; i < 4; i++) tasks.push((await api.post('/v1/tasks', { key, body: { title: `in flight ${i}`, description: 'd', agentId } })).body.data.id as string);
  await until('every SendMessage at the agent', () => new Set(agent!.received.map((m) => m.messageId)).size === tasks.length, 60_000);

  await proc.stop('SIGKILL');
  // The agent answers into closed connections; the service must send again after its restart.
  release();
  gate = Promise.resolve();

  proc = await start(env);
  api = apiClient(proc.url);
  await until('every task completed', async () => (await statuses(api, key, tasks)).every((s) => s === 'completed'), 90_000);

  // However often a task was sent, the agent saw one messageId for it: the task's own id.
  const ids = agent.received.map((m) => m.messageId);
  expect(ids.length).toBeGreaterThan(tasks.length); // the calls cut by the crash were sent again
  expect(new Set(ids)).toEqual(new Set(tasks));
  for (const id of tasks) {
    const task = (await api.get(`/v1/tasks/${id}`, { key })).body.data;
    expect(task.result.artifacts[0].parts[0].data).toEqual({ ok: true });
  }
}, 240_000);
