// Decisions on accounts taken after an attacker's review (docs/accounts.md): a session made from an API
// key ends with the key (revoked or expired); over https the session cookie is `__Host-` prefixed and
// the plain name is not read; app names lose text-direction and control characters; a malformed GraphQL
// body is answered in plain words, not with the JSON parser's message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGraphQLServer } from '../src/graphql/yoga.js';
import { createLogger } from '../src/logger.js';
import { startTestServer, type TestServer } from './support/server.js';

let server: TestServer;
let now = new Date();

beforeAll(async () => {
  server = await startTestServer({}, { time: { clock: { now: () => now } } });
});
afterAll(async () => {
  await server?.close();
});

const browser = { 'sec-fetch-site': 'same-origin' };
const meWith = async (target: TestServer, cookie: string) => (await target.api.post('/graphql', { headers: { cookie, ...browser }, body: { query: '{ me { id } }' } })).body;

async function sessionFrom(apiKey: string) {
  const res = await server.api.post('/v1/auth/api-key-session', { body: { apiKey }, headers: browser });
  expect(res.status).toBe(200);
  return res.headers.get('set-cookie')!.split(';')[0]!;
}

describe('a session made from an API key', () => {
  it('ends when the key is revoked', async () => {
    const user = await server.createUser();
    const key = (await server.api.post('/v1/api-keys', { key: user.apiKey, body: { name: 'pasted' } })).body.data;
    const cookie = await sessionFrom(key.apiKey);
    expect((await meWith(server, cookie)).data.me.id).toBe(user.id);
    expect((await server.api.delete(`/v1/api-keys/${key.id}`, { key: user.apiKey })).status).toBe(200);
    expect((await meWith(server, cookie)).errors[0].extensions.code).toBe('UNAUTHENTICATED');
    // A session made from another key of the same user is not touched.
    const other = await sessionFrom(user.apiKey);
    expect((await meWith(server, other)).data.me.id).toBe(user.id);
  });

  it('lives no longer than the key', async () => {
    const user = await server.createUser();
    const expiresAt = new Date(now.getTime() + 2 * 86_400_000);
    const key = (await server.api.post('/v1/api-keys', { key: user.apiKey, body: { name: 'short', expiresAt: expiresAt.toISOString() } })).body.data;
    const cookie = await sessionFrom(key.apiKey);
    const listed = (await server.api.get('/v1/account/sessions', { headers: { cookie, ...browser } })).body.data.find((s: { current: boolean }) => s.current);
    expect(new Date(listed.expiresAt).getTime()).toBe(expiresAt.getTime());
    now = new Date(expiresAt.getTime() - 60_000);
    expect((await meWith(server, cookie)).data.me.id).toBe(user.id);
    now = new Date(expiresAt.getTime() + 1_000);
    expect((await meWith(server, cookie)).errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});

describe('the session cookie over https', () => {
  let https: TestServer;
  beforeAll(async () => {
    https = await startTestServer({ PUBLIC_BASE_URL: 'https://marketplace.example' });
  });
  afterAll(async () => {
    await https?.close();
  });

  it('is __Host-tm_session, Secure; a plain tm_session (planted from a sibling domain) is not read', async () => {
    const user = await https.createUser();
    const res = await https.api.post('/v1/auth/api-key-session', { body: { apiKey: user.apiKey }, headers: browser });
    const setCookie = res.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^__Host-tm_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+; Secure$/);
    const secret = setCookie.split(';')[0]!.split('=')[1]!;
    expect((await meWith(https, `__Host-tm_session=${secret}`)).data.me.id).toBe(user.id);
    expect((await meWith(https, `tm_session=${secret}`)).errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const out = await https.api.post('/v1/auth/sign-out', { headers: { cookie: `__Host-tm_session=${secret}`, ...browser } });
    expect(out.headers.get('set-cookie')).toMatch(/^__Host-tm_session=; Path=\/; HttpOnly; SameSite=Lax; Max-Age=0; Secure$/);
  });

  it('is tm_session without the prefix over http (development)', async () => {
    const user = await server.createUser();
    const res = await server.api.post('/v1/auth/api-key-session', { body: { apiKey: user.apiKey }, headers: browser });
    expect(res.headers.get('set-cookie')).toMatch(/^tm_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
  });
});

describe('app names', () => {
  it('lose the characters that reorder or hide text, as file names do', async () => {
    const res = await fetch(`${server.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: '\u202Emoc.elgoog\u202C\u200B Helper\u0007\u2066', redirect_uris: ['https://app.example/cb'] }),
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { client_name: string }).client_name).toBe('moc.elgoog Helper');
    const hidden = await fetch(`${server.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: '\u202E\u202C', redirect_uris: ['https://app.example/cb'] }),
    });
    expect(((await hidden.json()) as { client_name: string }).client_name).toBe('Unnamed app');
  });
});

describe('a malformed GraphQL body', () => {
  it('is answered 400 in plain words, without the parser message or the body, in production and over HTTP', async () => {
    const production = createGraphQLServer({ services: server.app.services, verifyJwt: null, logger: createLogger('silent'), production: true }).yoga;
    for (const body of ['{bad', '{"query": "{ me { id } }"', '[1,2']) {
      const res = await production.fetch('http://local/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(res.status).toBe(400);
      const answer = (await res.json()) as { errors: Array<{ message: string; extensions: Record<string, unknown> }> };
      expect(answer.errors).toEqual([{ message: 'the body is not valid JSON', extensions: { code: 'INVALID_INPUT', field: 'body' } }]);
    }
    const overHttp = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query": "{ me' });
    expect(overHttp.status).toBe(400);
    const text = await overHttp.text();
    expect(text).toContain('the body is not valid JSON');
    expect(text).not.toMatch(/position|Unexpected|SyntaxError|me \{/);
  });
});
