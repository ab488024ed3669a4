// Rate limits as a client meets them: one budget per user however the Authorization header is spelled,
// a smaller one per address for credentials that do not verify, WebSocket subscriptions counted, the
// draft RateLimit fields on answers, and one budget across server processes sharing a store.
import { randomBytes } from 'node:crypto';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addressKey } from '../src/http/rate-limit.js';
import { createTestDatabase, usingPostgres, type TestDatabase } from './support/database.js';
import { startTestServer, type TestServer } from './support/server.js';

let db: TestDatabase;
const servers: TestServer[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
});
// Each test's servers close when it ends: every one holds database connections, and the files running
// beside this one need theirs.
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});
afterAll(async () => {
  await db?.close();
});

// A server on the shared database with its own counters (a fresh key prefix), so tests do not meet.
async function serverWith(env: Record<string, string>, prefix = `t${randomBytes(4).toString('hex')}`): Promise<TestServer> {
  const server = await startTestServer({ RATE_LIMIT_KEY_PREFIX: prefix, ...env }, { db });
  servers.push(server);
  return server;
}

const get = (server: TestServer, authorization?: string) =>
  fetch(`${server.url}/v1/agents`, { headers: authorization ? { authorization } : {} });

describe('requests', () => {
  it('counts every spelling of one key against one budget, and says so in RateLimit fields', async () => {
    const server = await serverWith({ RATE_LIMIT_PER_MINUTE: '4' });
    const { apiKey } = await server.createUser();
    const spellings = [`Bearer ${apiKey}`, `bearer ${apiKey}`, `BEARER   ${apiKey}`, `Bearer\t${apiKey} `];
    const remaining: string[] = [];
    for (const authorization of spellings) {
      const res = await get(server, authorization);
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-policy')).toBe('"default";q=4;w=60');
      remaining.push(res.headers.get('ratelimit')!.split(';')[1]!);
    }
    expect(remaining).toEqual(['r=3', 'r=2', 'r=1', 'r=0']);

    const refused = await get(server, `bEaReR ${apiKey}`);
    expect(refused.status).toBe(429);
    expect((await refused.json()).error.code).toBe('RATE_LIMITED');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get('ratelimit')).toMatch(/^"default";r=0;t=\d+$/);

    // Another user has a budget of their own.
    const other = await server.createUser();
    expect((await get(server, `Bearer ${other.apiKey}`)).status).toBe(200);
  });

  it('takes the address from X-Forwarded-For only as far as TRUSTED_PROXY_HOPS trusts it', async () => {
    const anonymous = (server: TestServer, forwardedFor: string) => fetch(`${server.url}/v1/discover`, { headers: { 'x-forwarded-for': forwardedFor } });
    // Behind one proxy: the entry it appended is the caller; what the client wrote before it is not.
    const proxied = await serverWith({ RATE_LIMIT_PER_MINUTE: '2', TRUSTED_PROXY_HOPS: '1' });
    expect((await anonymous(proxied, '198.51.100.7, 203.0.113.1')).status).toBe(200);
    expect((await anonymous(proxied, '198.51.100.8, 203.0.113.1')).status).toBe(200);
    expect((await anonymous(proxied, '198.51.100.9, 203.0.113.1')).status).toBe(429);
    expect((await anonymous(proxied, '203.0.113.2')).status).toBe(200);
    // Without trusted proxies (the default) the header is the client's own word and changes nothing.
    const direct = await serverWith({ RATE_LIMIT_PER_MINUTE: '2' });
    expect((await anonymous(direct, '203.0.113.1')).status).toBe(200);
    expect((await anonymous(direct, '203.0.113.2')).status).toBe(200);
    expect((await anonymous(direct, '203.0.113.3')).status).toBe(429);
  });

  it('counts failed WebSocket sign-ins against the same failed-authentication budget as HTTP', async () => {
    const server = await serverWith({ RATE_LIMIT_PER_MINUTE: '100', RATE_LIMIT_FAILED_AUTH_PER_MINUTE: '3' });
    // Opens a socket with these credentials and reports how the server closed it.
    const signIn = (authorization: string) =>
      new Promise<number>((resolve) => {
        const client = createClient({
          url: `${server.url.replace('http', 'ws')}/graphql`,
          webSocketImpl: WebSocket,
          connectionParams: { authorization },
          retryAttempts: 0,
          lazy: false,
          // The refusal is what the test reads; graphql-ws would also print each close event to stderr.
          onNonLazyError: () => {},
          on: { closed: (event) => resolve((event as { code: number }).code) },
        });
        void client;
      });
    const guess = () => `Bearer tmk_${randomBytes(16).toString('hex')}`;
    // Wrong keys over the socket spend the budget: the fourth is refused there, and so is HTTP after it.
    for (let i = 0; i < 3; i++) expect(await signIn(guess())).toBe(4401);
    expect(await signIn(guess())).toBe(4429);
    expect((await get(server, guess())).status).toBe(429);
  });

  it('throttles credentials that do not verify per address, apart from the users budget', async () => {
    const server = await serverWith({ RATE_LIMIT_PER_MINUTE: '100', RATE_LIMIT_FAILED_AUTH_PER_MINUTE: '3' });
    const { apiKey } = await server.createUser();
    for (let i = 0; i < 3; i++) {
      const res = await get(server, `Bearer tmk_${randomBytes(16).toString('hex')}`);
      expect(res.status).toBe(401);
      expect(res.headers.get('ratelimit-policy')).toBe('"auth";q=3;w=60');
    }
    const refused = await get(server, `Bearer tmk_${randomBytes(16).toString('hex')}`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    // The same goes for GraphQL, on the same address budget.
    const graphql = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { authorization: 'Bearer not-a-key', 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(graphql.status).toBe(429);
    // A caller whose key verifies is not held back by someone else's guessing.
    expect((await get(server, `Bearer ${apiKey}`)).status).toBe(200);
  });

  it('counts anonymous requests per address', async () => {
    const server = await serverWith({ RATE_LIMIT_PER_MINUTE: '2' });
    const discover = () => fetch(`${server.url}/v1/discover`);
    expect((await discover()).status).toBe(200);
    expect((await discover()).status).toBe(200);
    expect((await discover()).status).toBe(429);
  });

  it('sends no RateLimit fields when limiting is off', async () => {
    const server = await serverWith({ RATE_LIMIT_PER_MINUTE: '0' });
    const res = await fetch(`${server.url}/v1/discover`);
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit')).toBeNull();
  });
});

describe('WebSocket', () => {
  function wsClient(server: TestServer, key: string, closes: number[]): Client {
    return createClient({
      url: server.url.replace('http', 'ws') + '/graphql',
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${key}` },
      retryAttempts: 0,
      lazy: false,
      onNonLazyError: () => {},
      on: { closed: (event) => closes.push((event as { code: number }).code) },
    });
  }

  // Subscribes and resolves once the server took the subscription (the first event) or refused it.
  function subscribe(client: Client): Promise<{ ok: boolean; error?: unknown }> {
    return new Promise((resolve) => {
      client.subscribe(
        { query: '{ __typename }' },
        { next: () => resolve({ ok: true }), error: (error) => resolve({ ok: false, error }), complete: () => resolve({ ok: true }) },
      );
    });
  }

  it('counts each subscribe against the users budget and closes with 4429 when it is spent', async () => {
    const server = await serverWith({ RATE_LIMIT_PER_MINUTE: '4' });
    const { apiKey } = await server.createUser();
    // Two HTTP requests and two operations over the socket spend the budget of four.
    expect((await get(server, `Bearer ${apiKey}`)).status).toBe(200);
    expect((await get(server, `bearer ${apiKey}`)).status).toBe(200);
    const closes: number[] = [];
    const client = wsClient(server, apiKey, closes);
    expect((await subscribe(client)).ok).toBe(true);
    expect((await subscribe(client)).ok).toBe(true);
    const refused = await subscribe(client);
    expect(refused.ok).toBe(false);
    await expect.poll(() => closes).toEqual([4429]);
    await client.dispose();
    expect((await get(server, `Bearer ${apiKey}`)).status).toBe(429);
  });
});

describe('across processes', () => {
  it.runIf(usingPostgres())('two servers on one PostgreSQL share one budget', async () => {
    const prefix = `shared${randomBytes(4).toString('hex')}`;
    const one = await serverWith({ RATE_LIMIT_PER_MINUTE: '5' }, prefix);
    const two = await serverWith({ RATE_LIMIT_PER_MINUTE: '5' }, prefix);
    const { apiKey } = await one.createUser();
    const statuses: number[] = [];
    for (const server of [one, two, one, two, one, two]) statuses.push((await get(server, `Bearer ${apiKey}`)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const rows = await one.prisma.$queryRaw<Array<{ key: string }>>`SELECT key FROM rate_limit.buckets WHERE key LIKE ${prefix + '%'}`;
    expect(rows.length).toBe(1);
  });

  it.runIf(Boolean(process.env.REDIS_URL))('two servers on one Redis share one budget', async () => {
    const env = { RATE_LIMIT_PER_MINUTE: '3', REDIS_URL: process.env.REDIS_URL! };
    const prefix = `redis${randomBytes(4).toString('hex')}`;
    const one = await serverWith(env, prefix);
    const two = await serverWith(env, prefix);
    const { apiKey } = await one.createUser();
    const statuses: number[] = [];
    for (const server of [one, two, one, two]) statuses.push((await get(server, `Bearer ${apiKey}`)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await get(two, `Bearer ${apiKey}`)).headers.get('ratelimit')).toMatch(/^"default";r=0;t=\d+$/);
  });
});

describe('addressKey', () => {
  it('keys IPv4 (also IPv4-mapped) by address and IPv6 by its /64', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:0:1::5')).toBe(addressKey('2001:db8:0:1:ffff::9'));
    expect(addressKey('2001:db8:0:1::5')).not.toBe(addressKey('2001:db8:0:2::5'));
    expect(addressKey(undefined)).toBe('unknown');
  });
});
