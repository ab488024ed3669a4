// Live task status: graphql-ws over WebSocket and GraphQL over SSE, with the same authentication as
// HTTP, and across two server processes sharing one PostgreSQL.
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { test } from './support/fixtures.js';
import type { TestServer } from './support/server.js';
import { waitForStatus, type TestAgent } from './support/agent.js';
import { agentKeepingTasksMatched } from './support/subscriptions.js';
import { usingPostgres } from './support/database.js';
import { killAll, startServerProcess, type ServerProcess } from './support/processes.js';
import { until } from './support/wait.js';

let server: TestServer;
let requester: { id: string; apiKey: string };
let owner: { id: string; apiKey: string };
let agentHttp: TestAgent;
let agentId: string;

test.beforeAll(async ({ server: s, owner: o, requester: r }) => {
  [server, owner, requester] = [s, o, r];
  ({ agentHttp, agentId } = await agentKeepingTasksMatched(server, owner.apiKey));
});
afterAll(async () => {
  await agentHttp?.close();
});

const createTask = (api = server.api) =>
  api.post('/v1/tasks', { key: requester.apiKey, body: { title: 'Watch me', description: 'd', agentId, expiresInMinutes: 30 } }).then((r) => r.body.data);

function wsClient(baseUrl: string, key?: string): Client {
  return createClient({
    url: baseUrl.replace('http', 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    connectionParams: key ? { authorization: `Bearer ${key}` } : {},
    retryAttempts: 0,
    lazy: true,
  });
}

// Collects a subscription's results until `until` says stop.
function collect(client: Client, query: string, variables: Record<string, unknown>, until: (statuses: string[]) => boolean) {
  const statuses: string[] = [];
  // With the task's id where the selection asks for it.
  const events: Array<{ id?: string; status: string }> = [];
  const errors: unknown[] = [];
  const done = new Promise<void>((resolve) => {
    const unsubscribe = client.subscribe<{ taskUpdated?: { status: string }; taskEvents?: { status: string; id: string } }>(
      { query, variables },
      {
        next: (value) => {
          if (value.errors) errors.push(...value.errors);
          const task = value.data?.taskUpdated ?? value.data?.taskEvents;
          if (task) {
            statuses.push(task.status);
            events.push(task);
          }
          if (value.errors || until(statuses)) {
            unsubscribe();
            resolve();
          }
        },
        error: (error) => {
          errors.push(error);
          resolve();
        },
        complete: () => resolve(),
      },
    );
  });
  return { statuses, events, errors, done };
}

describe('graphql-ws', () => {
  it('streams the current state, then each change, to the requester', async () => {
    const task = await createTask();
    await agentHttp.waitFor(1);
    const client = wsClient(server.url, requester.apiKey);
    const sub = collect(client, 'subscription($id: ID!) { taskUpdated(id: $id) { id status } }', { id: task.id }, (s) => s.includes('completed'));
    await waitForStatus(async () => ({ status: sub.statuses.length ? 'seen' : 'none' }), ['seen']);
    await server.api.patch(`/v1/tasks/${task.id}/complete`, { key: owner.apiKey, body: { result: { ok: true } } });
    await sub.done;
    await client.dispose();
    expect(sub.errors).toEqual([]);
    expect(sub.statuses[0]).toBe('matched');
    expect(sub.statuses.at(-1)).toBe('completed');
  });

  it('refuses a socket without credentials and a stranger', async () => {
    const task = await createTask();
    const anonymous = wsClient(server.url);
    const a = collect(anonymous, 'subscription($id: ID!) { taskUpdated(id: $id) { status } }', { id: task.id }, () => true);
    await a.done;
    await anonymous.dispose();
    expect(JSON.stringify(a.errors)).toContain('UNAUTHENTICATED');

    const stranger = await server.createUser();
    const other = wsClient(server.url, stranger.apiKey);
    const b = collect(other, 'subscription($id: ID!) { taskUpdated(id: $id) { status } }', { id: task.id }, () => true);
    await b.done;
    await other.dispose();
    expect(JSON.stringify(b.errors)).toContain('FORBIDDEN');
  });

  it('sends the agent owner the events of tasks assigned to their agents', async () => {
    const client = wsClient(server.url, owner.apiKey);
    let watched: string | undefined;
    const sub = collect(client, 'subscription { taskEvents(role: agent) { id status } }', {}, () =>
      sub.events.some((e) => e.id === watched && e.status === 'cancelled'),
    );
    // The subscription is registered once it sees a task made after it: warm-up tasks until one shows.
    await until('the subscription to see a new task', async () => {
      const warmUp = await createTask();
      return until('its event', () => sub.events.some((e) => e.id === warmUp.id), 2_000).catch(() => false);
    });
    const task = await createTask();
    watched = task.id;
    await server.api.post(`/v1/tasks/${task.id}/cancel`, { key: requester.apiKey });
    await sub.done;
    await client.dispose();
    const statuses = sub.events.filter((e) => e.id === task.id).map((e) => e.status);
    expect(statuses).toContain('matched');
    expect(statuses.at(-1)).toBe('cancelled');
  });
});

describe('server-sent events', () => {
  it('streams taskUpdated over text/event-stream', async () => {
    const task = await createTask();
    const abort = new AbortController();
    const res = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${requester.apiKey}` },
      body: JSON.stringify({ query: 'subscription($id: ID!) { taskUpdated(id: $id) { status } }', variables: { id: task.id } }),
      signal: abort.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.getReader();
    let text = '';
    let cancelled = false;
    while (!text.includes('"cancelled"')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += Buffer.from(value).toString('utf8');
      if (!cancelled && text.includes('"matched"')) {
        cancelled = true;
        await server.api.post(`/v1/tasks/${task.id}/cancel`, { key: requester.apiKey });
      }
    }
    abort.abort();
    expect(text).toContain('event: next');
    expect(text).toContain('"matched"');
    expect(text).toContain('"cancelled"');
  });
});

describe.skipIf(!usingPostgres())('two server processes on one PostgreSQL', () => {
  let second: ServerProcess | undefined;
  beforeAll(async () => {
    second = await startServerProcess({ DATABASE_URL: server.db.url, SECRET_KEY: 'a'.repeat(64), RATE_LIMIT_PER_MINUTE: '0' });
  });
  afterAll(async () => {
    await second?.stop();
    await killAll([second]);
  });

  it('delivers an event to a subscriber on one process for a change made through the other', async () => {
    const task = await createTask();
    const client = wsClient(server.url, requester.apiKey);
    const sub = collect(client, 'subscription($id: ID!) { taskUpdated(id: $id) { status } }', { id: task.id }, (s) => s.includes('completed'));
    await waitForStatus(async () => ({ status: sub.statuses.length ? 'seen' : 'none' }), ['seen']);
    const res = await fetch(`${second!.url}/v1/tasks/${task.id}/complete`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.apiKey}` },
      body: JSON.stringify({ result: { via: 'second process' } }),
    });
    expect(res.status).toBe(200);
    await sub.done;
    await client.dispose();
    expect(sub.statuses.at(-1)).toBe('completed');
  });
});
