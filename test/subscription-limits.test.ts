// Open subscriptions are capped per user and per client address, WebSocket and SSE counted together;
// a slot is free again once its subscription ends.
import { afterAll, describe, expect, it } from 'vitest';
import { testWith } from './support/fixtures.js';
import type { TestServer } from './support/server.js';
import type { TestAgent } from './support/agent.js';
import { agentKeepingTasksMatched, openSse, openSocket, TASK_UPDATED } from './support/subscriptions.js';
import { until } from './support/wait.js';

const PER_USER = 3;
const PER_ADDRESS = 5;

let server: TestServer;
let agentHttp: TestAgent;
let agentId: string;

const test = testWith({ serverEnv: { SUBSCRIPTIONS_PER_USER: String(PER_USER), SUBSCRIPTIONS_PER_ADDRESS: String(PER_ADDRESS) } });

test.beforeAll(async ({ server: s }) => {
  server = s;
  const owner = await server.createUser();
  ({ agentHttp, agentId } = await agentKeepingTasksMatched(server, owner.apiKey));
});
afterAll(async () => {
  await agentHttp?.close();
});

const createTask = (key: string) =>
  server.api.post('/v1/tasks', { key, body: { title: 'Watch me', description: 'd', agentId, expiresInMinutes: 30 } }).then((r) => r.body.data as { id: string });

describe('open subscriptions', () => {
  it('refuses the user\'s one over SUBSCRIPTIONS_PER_USER on either transport, and admits one again after one ends', async () => {
    const user = await server.createUser();
    const task = await createTask(user.apiKey);
    const vars = { id: task.id };
    const sockets = [openSocket(server.url, user.apiKey, TASK_UPDATED, vars), openSocket(server.url, user.apiKey, TASK_UPDATED, vars)];
    const sse = await openSse(server.url, user.apiKey, TASK_UPDATED, vars);
    await until('the three to be open', () => sockets.every((s) => s.statuses.length > 0) && sse.text.includes('"matched"'));

    const refusedSse = await openSse(server.url, user.apiKey, TASK_UPDATED, vars);
    expect(refusedSse.status).toBe(429);
    expect(refusedSse.body).toMatchObject({ error: { code: 'RATE_LIMITED' } });
    const refusedSocket = openSocket(server.url, user.apiKey, TASK_UPDATED, vars);
    await refusedSocket.ended;
    expect(JSON.stringify(refusedSocket.errors)).toContain('RATE_LIMITED');
    expect(refusedSocket.statuses).toEqual([]);
    await refusedSocket.dispose();

    // The ones already open keep working.
    sse.close();
    await sse.ended;
    const again = await until('a slot to be free', async () => {
      const attempt = await openSse(server.url, user.apiKey, TASK_UPDATED, vars);
      return attempt.status === 200 ? attempt : null;
    });
    await until('the new stream to see the task', () => again.text.includes('"matched"'));
    again.close();
    await sockets[0]!.dispose();
    const third = openSocket(server.url, user.apiKey, TASK_UPDATED, vars);
    await until('the new socket to see the task', () => third.statuses.length > 0);
    expect(third.errors).toEqual([]);
    await Promise.all([third.dispose(), sockets[1]!.dispose()]);
  });

  it('refuses an address over SUBSCRIPTIONS_PER_ADDRESS, whatever user opens it', async () => {
    const users = [await server.createUser(), await server.createUser()];
    const tasks = [await createTask(users[0]!.apiKey), await createTask(users[1]!.apiKey)];
    const open = [];
    for (let i = 0; i < PER_ADDRESS; i++) {
      const who = i < PER_USER ? 0 : 1;
      open.push(await openSse(server.url, users[who]!.apiKey, TASK_UPDATED, { id: tasks[who]!.id }));
    }
    expect(open.map((s) => s.status)).toEqual(Array(PER_ADDRESS).fill(200));
    const refused = await openSse(server.url, users[1]!.apiKey, TASK_UPDATED, { id: tasks[1]!.id });
    expect(refused.status).toBe(429);
    for (const s of open) s.close();
    await Promise.all(open.map((s) => s.ended));
  });
});
