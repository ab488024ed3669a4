// Browser sessions over real HTTP: a pasted API key becomes an HttpOnly cookie; the cookie authenticates
// REST, GraphQL and subscriptions like a key; a page of another site cannot use it to change anything;
// every sign-in gets a new session id; ending a session fails its next request and closes its streams.
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server.js';
import { agentKeepingTasksMatched } from './support/subscriptions.js';
import { until } from './support/wait.js';
import type { TestAgent } from './support/agent.js';

const ME = 'query { me { id email } }';
const SUBSCRIBE = 'subscription($id: ID!) { taskUpdated(id: $id) { id status } }';

let server: TestServer;
let alice: { id: string; apiKey: string };
let bob: { id: string; apiKey: string };
let now = new Date();
let agentHttp: TestAgent;
let agentId: string;

beforeAll(async () => {
  server = await startTestServer({ SESSION_IDLE_TIMEOUT_MINUTES: '60', SESSION_MAX_AGE_DAYS: '2' }, { time: { clock: { now: () => now } } });
  alice = await server.createUser('alice-sessions@example.com');
  bob = await server.createUser('bob-sessions@example.com');
  const owner = await server.createUser();
  ({ agentHttp, agentId } = await agentKeepingTasksMatched(server, owner.apiKey));
});

afterAll(async () => {
  await server?.close();
  await agentHttp?.close();
});

// Signs in with the key as the sign-in page does; the session cookie's `name=value`.
async function signIn(apiKey: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await server.api.post('/v1/auth/api-key-session', { body: { apiKey }, headers });
  expect(res.status).toBe(200);
  const setCookie = res.headers.get('set-cookie')!;
  expect(setCookie).toMatch(/^tm_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=172800$/);
  return setCookie.split(';')[0]!;
}

const asBrowser = (cookie: string, extra: Record<string, string> = {}) => ({ cookie, 'sec-fetch-site': 'same-origin', ...extra });
const me = async (cookie: string) => (await server.api.post('/graphql', { headers: asBrowser(cookie), body: { query: ME } })).body;

describe('a session cookie', () => {
  it('is exchanged for an API key, stored only as a hash, and authenticates GraphQL and REST', async () => {
    const cookie = await signIn(alice.apiKey);
    const secret = cookie.split('=')[1]!;
    expect((await me(cookie)).data.me).toEqual({ id: alice.id, email: 'alice-sessions@example.com' });
    const rows = await server.sql.selectFrom('sessions').select(['hash', 'method']).where('userId', '=', alice.id).execute();
    expect(rows.map((r) => r.hash)).not.toContain(secret);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.hash))).toBe(true);
    const tasks = await server.api.get('/v1/tasks', { headers: asBrowser(cookie) });
    expect(tasks.status).toBe(200);
    const sessions = await server.api.get('/v1/account/sessions', { headers: asBrowser(cookie) });
    expect(sessions.status).toBe(200);
    expect(sessions.body.data.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    expect(sessions.body.data[0]).toMatchObject({ method: 'api_key' });
    expect(JSON.stringify(sessions.body)).not.toContain(secret);
  });

  it('refuses a wrong key with 401 and a key pasted as nothing with 400', async () => {
    expect((await server.api.post('/v1/auth/api-key-session', { body: { apiKey: 'tmk_nope' } })).status).toBe(401);
    const empty = await server.api.post('/v1/auth/api-key-session', { body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatchObject({ code: 'INVALID_INPUT', field: 'apiKey' });
  });

  it('refuses a state-changing request from another origin with 403, on REST and on POST /graphql', async () => {
    const cookie = await signIn(alice.apiKey);
    const mutation = { query: 'mutation { createApiKey(name: "csrf") { id } }' };
    for (const headers of [{ cookie, 'sec-fetch-site': 'cross-site' } as Record<string, string>, { cookie, 'sec-fetch-site': 'same-site' }, { cookie, origin: 'https://evil.example' }]) {
      const graphql = await server.api.post('/graphql', { headers, body: mutation });
      expect(graphql.status).toBe(403);
      expect(graphql.body.error.code).toBe('FORBIDDEN');
      const rest = await server.api.post('/v1/agents', { headers, body: { name: 'Forged', endpoint: 'http://127.0.0.1:9/' } });
      expect(rest.status).toBe(403);
      const signOut = await server.api.post('/v1/auth/sign-out', { headers });
      expect(signOut.status).toBe(403);
    }
    // Nothing was made, and the session still works.
    const keys = await server.api.post('/graphql', { headers: asBrowser(cookie), body: { query: '{ apiKeys { name } }' } });
    expect(keys.body.data.apiKeys.map((k: { name: string }) => k.name)).not.toContain('csrf');
    // The same from this site's own pages, by Sec-Fetch-Site or by an Origin matching the host, is served.
    expect((await server.api.post('/graphql', { headers: asBrowser(cookie), body: mutation })).body.data.createApiKey.id).toMatch(/^key_/);
    const host = new URL(server.url).host;
    expect((await server.api.post('/graphql', { headers: { cookie, origin: `http://${host}` }, body: mutation })).body.data.createApiKey.id).toMatch(/^key_/);
    // A script sending its key in the header is no browser's cookie: the origin check does not apply.
    expect((await server.api.post('/graphql', { key: alice.apiKey, headers: { origin: 'https://elsewhere.example' }, body: mutation })).status).toBe(200);
  });

  it('is a new session at every sign-in, and the one the browser held before ends (no fixation)', async () => {
    const first = await signIn(alice.apiKey);
    const second = await signIn(alice.apiKey, asBrowser(first));
    expect(second).not.toBe(first);
    expect((await me(first)).errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect((await me(second)).data.me.id).toBe(alice.id);
    // A secret planted in the browser before sign-in is not one the service accepts.
    expect((await me('tm_session=planted-by-an-attacker-000000000000000000000')).errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('ends after the idle timeout and after its maximum age, by the service clock', async () => {
    const cookie = await signIn(bob.apiKey);
    now = new Date(now.getTime() + 59 * 60_000);
    expect((await me(cookie)).data.me.id).toBe(bob.id);
    now = new Date(now.getTime() + 59 * 60_000);
    expect((await me(cookie)).data.me.id).toBe(bob.id);
    // Idle a minute past the timeout: ended (the stored lastSeenAt may lag a use by up to a minute, so
    // the end may come that much late, never early).
    now = new Date(now.getTime() + 61 * 60_000 + 1);
    expect((await me(cookie)).errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const kept = await signIn(bob.apiKey);
    for (let hours = 0; hours < 47; hours++) {
      now = new Date(now.getTime() + 59 * 60_000);
      expect((await me(kept)).data?.me.id).toBe(bob.id);
    }
    now = new Date(now.getTime() + 2 * 60 * 60_000);
    expect((await me(kept)).errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});

describe('a short idle timeout', () => {
  let short: TestServer;
  let at = new Date();
  beforeAll(async () => {
    short = await startTestServer({ SESSION_IDLE_TIMEOUT_MINUTES: '1' }, { time: { clock: { now: () => at } } });
  });
  afterAll(async () => {
    await short?.close();
  });

  it('never ends a session in use, and ends it once idle longer than the timeout', async () => {
    const user = await short.createUser('idle-short@example.com');
    const res = await short.api.post('/v1/auth/api-key-session', { body: { apiKey: user.apiKey } });
    const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
    const meHere = async () => (await short.api.post('/graphql', { headers: asBrowser(cookie), body: { query: ME } })).body;
    // Used every 13 s for five minutes: each use counts, whatever the write throttle of lastSeenAt.
    for (let step = 1; step <= 23; step++) {
      at = new Date(at.getTime() + 13_000);
      expect((await meHere()).data?.me.id, `use at ${step * 13} s`).toBe(user.id);
    }
    // Then 59 s without a request: still signed in; after two idle minutes: ended.
    at = new Date(at.getTime() + 59_000);
    expect((await meHere()).data?.me.id).toBe(user.id);
    at = new Date(at.getTime() + 120_000);
    expect((await meHere()).errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});

describe('ending sessions', () => {
  it('sign-out ends the session and clears the cookie', async () => {
    const cookie = await signIn(bob.apiKey);
    const out = await server.api.post('/v1/auth/sign-out', { headers: asBrowser(cookie) });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^tm_session=; .*Max-Age=0/);
    expect((await me(cookie)).errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('a session revoked from another device fails its next request and closes its WebSocket and SSE subscriptions', async () => {
    const laptop = await signIn(alice.apiKey);
    const phone = await signIn(alice.apiKey);
    const task = (await server.api.post('/v1/tasks', { key: alice.apiKey, body: { title: 'Watch me', description: 'd', agentId, expiresInMinutes: 30 } })).body.data as { id: string };
    const sse = await openSseWith(asBrowser(laptop), task.id);
    const socket = openSocketWithCookie(laptop, task.id);
    await until('the subscriptions to see the task', () => socket.statuses.length > 0 && sse.text.includes('"matched"'));

    const laptopId = (await server.api.get('/v1/account/sessions', { headers: asBrowser(laptop) })).body.data.find((s: { current: boolean }) => s.current).id;
    const revoked = await server.api.delete(`/v1/account/sessions/${laptopId}`, { headers: asBrowser(phone) });
    expect(revoked.status).toBe(204);

    expect(await socket.closed).toEqual({ code: 4401, reason: 'credentials revoked' });
    await sse.ended;
    expect(sse.text).toContain('credentials revoked');
    expect(sse.text.trimEnd()).toMatch(/event: complete\ndata:$/);
    expect((await me(laptop)).errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect((await server.api.get('/v1/tasks', { headers: asBrowser(laptop) })).status).toBe(401);
    expect((await me(phone)).data.me.id).toBe(alice.id);
    // Another user's session is not this user's to end.
    const bobs = await signIn(bob.apiKey);
    const phoneId = (await server.api.get('/v1/account/sessions', { headers: asBrowser(phone) })).body.data.find((s: { current: boolean }) => s.current).id;
    expect((await server.api.delete(`/v1/account/sessions/${phoneId}`, { headers: asBrowser(bobs) })).status).toBe(404);
    expect((await me(phone)).data.me.id).toBe(alice.id);
  });

  it('"sign out everywhere" ends every session of the user, and only theirs', async () => {
    const one = await signIn(alice.apiKey);
    const two = await signIn(alice.apiKey);
    const bobs = await signIn(bob.apiKey);
    const all = await server.api.delete('/v1/account/sessions', { headers: asBrowser(one) });
    expect(all.status).toBe(200);
    expect(all.body.data.revoked).toBeGreaterThanOrEqual(2);
    expect((await me(one)).errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect((await me(two)).errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect((await me(bobs)).data.me.id).toBe(bob.id);
    // The API key is not a session: it still works.
    expect((await server.api.graphql(ME, {}, alice.apiKey)).data.me.id).toBe(alice.id);
  });
});

async function openSseWith(headers: Record<string, string>, taskId: string) {
  const res = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
    body: JSON.stringify({ query: SUBSCRIBE, variables: { id: taskId } }),
  });
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const state = { text: '', ended: Promise.resolve() };
  const reader = res.body!.getReader();
  state.ended = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      state.text += Buffer.from(value).toString('utf8');
    }
  })();
  return state;
}

// A graphql-ws client whose upgrade request carries the cookie, as a browser's does (no connectionParams).
function openSocketWithCookie(cookie: string, taskId: string) {
  const origin = server.url;
  class CookieSocket extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { headers: { cookie, origin } });
    }
  }
  const statuses: string[] = [];
  let onClosed: (close: { code: number; reason: string }) => void = () => {};
  const closed = new Promise<{ code: number; reason: string }>((resolve) => (onClosed = resolve));
  const client = createClient({
    url: server.url.replace('http', 'ws') + '/graphql',
    webSocketImpl: CookieSocket,
    retryAttempts: 0,
    on: { closed: (event) => onClosed({ code: (event as { code: number }).code, reason: (event as { reason: string }).reason }) },
  });
  client.subscribe<{ taskUpdated?: { status: string } }>(
    { query: SUBSCRIBE, variables: { id: taskId } },
    { next: (value) => void (value.data?.taskUpdated && statuses.push(value.data.taskUpdated.status)), error: () => {}, complete: () => {} },
  );
  return { statuses, closed, dispose: () => client.dispose() };
}
