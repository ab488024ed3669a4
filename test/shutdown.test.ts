// Shutdown with live subscribers: SIGTERM ends the open event streams first, so the server can close
// and the process exits 0 instead of waiting for subscribers that never leave.
import { rm } from 'node:fs/promises';
import { afterAll, expect, it } from 'vitest';
import { createTestDatabase, testDataDir, usingPostgres, type TestDatabase } from './support/database.js';
import { killAll, startServerProcess, type ServerProcess } from './support/processes.js';
import { createUserOf } from './support/users.js';
import { startTestAgent, type TestAgent } from './support/agent.js';
import { apiClient } from './support/http.js';

let dataDir: string | undefined;
let db: TestDatabase | null = null;
let proc: ServerProcess | undefined;
let agentHttp: TestAgent | undefined;

afterAll(async () => {
  await killAll([proc]);
  await agentHttp?.close();
  await db?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

it('ends an open SSE subscription on SIGTERM and exits 0', async () => {
  dataDir = await testDataDir('tm-shutdown-');
  db = usingPostgres() ? await createTestDatabase() : null;
  const env = { DATA_DIR: dataDir, SECRET_KEY: 'c'.repeat(64), RATE_LIMIT_PER_MINUTE: '0', ...(db ? { DATABASE_URL: db.url } : {}) };
  proc = await startServerProcess(env);
  const user = await createUserOf(env, 'sse@example.com');
  agentHttp = await startTestAgent();
  agentHttp.respondWith([500]);
  const api = apiClient(proc.url);
  const agentId = (await api.post('/v1/agents', { key: user.apiKey, body: { name: 'Watched', endpoint: agentHttp.url } })).body.data.id;
  const task = (await api.post('/v1/tasks', { key: user.apiKey, body: { title: 't', description: 'd', agentId } })).body.data;

  const res = await fetch(`${proc.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${user.apiKey}` },
    body: JSON.stringify({ query: 'subscription($id: ID!) { taskUpdated(id: $id) { status } }', variables: { id: task.id } }),
  });
  const reader = res.body!.getReader();
  let text = '';
  while (!text.includes('event: next')) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the stream ended before its first event: ${text}`);
    text += Buffer.from(value).toString('utf8');
  }

  proc.child.kill('SIGTERM');
  let ended = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        ended = true;
        break;
      }
      text += Buffer.from(value).toString('utf8');
    }
  } catch {
    // the connection was cut instead of the stream being ended
  }
  const exit = await proc.finished;
  expect(ended).toBe(true);
  expect(text).toContain('event: complete');
  expect(exit.code).toBe(0);
}, 90_000);
