// Subscriptions end with the credentials that opened them: revoking an API key closes its WebSocket
// (4401) and SSE (a last UNAUTHENTICATED error) subscriptions, in this process or another on the same
// PostgreSQL; a subscription opened with an access token closes when the token expires.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server.js';
import type { TestAgent } from './support/agent.js';
import { startIdentityProvider, type IdentityProvider } from './support/identity-provider.js';
import { agentKeepingTasksMatched, openSse, openSocket, TASK_UPDATED } from './support/subscriptions.js';
import { until } from './support/wait.js';
import { usingPostgres } from './support/database.js';

const REVOKE_KEY = 'mutation ($id: ID!) { revokeApiKey(id: $id) { id revokedAt } }';

let server: TestServer;
let agentHttp: TestAgent;
let idp: IdentityProvider;
let requester: { id: string; apiKey: string };
let agentId: string;

beforeAll(async () => {
  idp = await startIdentityProvider();
  server = await startTestServer(idp.env);
  requester = await server.createUser();
  const owner = await server.createUser();
  ({ agentHttp, agentId } = await agentKeepingTasksMatched(server, owner.apiKey));
});
afterAll(async () => {
  await server?.close();
  await agentHttp?.close();
  await idp?.close();
});

const createTask = (key: string) =>
  server.api.post('/v1/tasks', { key, body: { title: 'Watch me', description: 'd', agentId, expiresInMinutes: 30 } }).then((r) => r.body.data as { id: string });

describe('a revoked API key', () => {
  it('closes its WebSocket subscription with 4401 and ends its SSE stream with UNAUTHENTICATED', async () => {
    const second = await server.app.services.accounts.createApiKey(requester.id, 'watcher');
    const task = await createTask(requester.apiKey);
    const socket = openSocket(server.url, second.apiKey, TASK_UPDATED, { id: task.id });
    const sse = await openSse(server.url, second.apiKey, TASK_UPDATED, { id: task.id });
    // The same user's subscription through another key stays open.
    const other = openSocket(server.url, requester.apiKey, TASK_UPDATED, { id: task.id });
    expect(sse.status).toBe(200);
    await until('the subscriptions to see the task', () => socket.statuses.length > 0 && other.statuses.length > 0 && sse.text.includes('"matched"'));

    const revoked = await server.api.post('/graphql', { key: requester.apiKey, body: { query: REVOKE_KEY, variables: { id: second.record.id } } });
    expect(revoked.body.errors).toBeUndefined();

    expect(await socket.closed).toEqual({ code: 4401, reason: 'credentials revoked' });
    await sse.ended;
    const last = sse.events.at(-2);
    expect(last?.data).toMatchObject({ errors: [{ message: 'credentials revoked', extensions: { code: 'UNAUTHENTICATED' } }] });
    expect(sse.events.at(-1)?.event).toBe('complete');

    // A change after the revocation reaches neither.
    const seen = { socket: socket.statuses.length, sse: sse.text.length };
    await server.api.post(`/v1/tasks/${task.id}/cancel`, { key: requester.apiKey });
    const status = await server.api.get(`/v1/tasks/${task.id}`, { key: requester.apiKey });
    expect(status.body.data.status).toBe('cancelled');
    await until('the other key\'s subscription to see the cancellation', () => other.statuses.includes('cancelled'));
    expect(socket.statuses.length).toBe(seen.socket);
    expect(sse.text.length).toBe(seen.sse);
    expect(sse.text).not.toContain('"cancelled"');
    await other.dispose();
  });
});

describe.skipIf(!usingPostgres())('two servers on one PostgreSQL', () => {
  it('closes the subscriptions on one server of a key revoked through the other', async () => {
    const other = await startTestServer({}, { db: server.db });
    try {
      const watcher = await server.app.services.accounts.createApiKey(requester.id, 'watcher');
      const task = await createTask(requester.apiKey);
      const socket = openSocket(server.url, watcher.apiKey, TASK_UPDATED, { id: task.id });
      const sse = await openSse(server.url, watcher.apiKey, TASK_UPDATED, { id: task.id });
      await until('both subscriptions to see the task', () => socket.statuses.length > 0 && sse.text.includes('"matched"'));
      const revoked = await other.api.post('/graphql', { key: requester.apiKey, body: { query: REVOKE_KEY, variables: { id: watcher.record.id } } });
      expect(revoked.body.errors).toBeUndefined();
      expect(await socket.closed).toEqual({ code: 4401, reason: 'credentials revoked' });
      await sse.ended;
      expect(sse.events.at(-2)?.data).toMatchObject({ errors: [{ extensions: { code: 'UNAUTHENTICATED' } }] });
    } finally {
      await other.close();
    }
  });
});

describe('an access token', () => {
  it('closes its WebSocket subscription and SSE stream when the token expires', async () => {
    const email = `token-${Date.now()}@example.com`;
    // Expires one to two seconds from now: the subscriptions close then, not at their next request.
    const exp = Math.ceil(Date.now() / 1000) + 1;
    const jwt = await idp.token({ sub: `idp|${email}`, email, exp });
    const task = await createTask(jwt);
    const socket = openSocket(server.url, jwt, TASK_UPDATED, { id: task.id });
    const sse = await openSse(server.url, jwt, TASK_UPDATED, { id: task.id });
    await until('both subscriptions to see the task', () => socket.statuses.length > 0 && sse.text.includes('"matched"'));

    expect(await socket.closed).toEqual({ code: 4401, reason: 'access token expired' });
    await sse.ended;
    expect(sse.events.at(-2)?.data).toMatchObject({ errors: [{ message: 'access token expired', extensions: { code: 'UNAUTHENTICATED' } }] });
    // Closed at the expiry, not before it.
    expect(Date.now()).toBeGreaterThanOrEqual(exp * 1000);
  });
});
