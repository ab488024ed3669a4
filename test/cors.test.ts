// Browsers on the origins in CORS_ORIGINS may call /v1 and /graphql; other origins get no CORS headers,
// so the browser refuses, and /graphql no longer echoes whatever origin asks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server.js';

const ALLOWED = 'https://app.example.com';
const OTHER = 'https://evil.example.net';
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ CORS_ORIGINS: `${ALLOWED}, http://localhost:5173` });
});
afterAll(() => server?.close());

const preflight = (path: string, origin: string, method = 'POST') =>
  fetch(server.url + path, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization, content-type, idempotency-key' },
  });

describe('CORS', () => {
  it('answers a preflight from an allowed origin with the methods, headers and exposed headers', async () => {
    for (const path of ['/v1/tasks', '/v1/agents/agt_1', '/graphql']) {
      const res = await preflight(path, ALLOWED);
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST, PUT, PATCH, DELETE');
      expect(res.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type, Idempotency-Key, X-Request-Id');
      expect(res.headers.get('access-control-expose-headers')).toContain('Retry-After');
      expect(res.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
      expect(res.headers.get('access-control-expose-headers')).toContain('RateLimit-Remaining');
    }
  });

  it('gives a preflight from another origin no CORS headers, so the browser refuses', async () => {
    for (const path of ['/v1/tasks', '/graphql']) {
      const res = await preflight(path, OTHER);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(res.headers.get('access-control-allow-methods')).toBeNull();
    }
  });

  it('marks actual responses for an allowed origin only', async () => {
    const user = await server.createUser();
    const allowed = await fetch(`${server.url}/v1/agents`, { headers: { origin: ALLOWED, authorization: `Bearer ${user.apiKey}` } });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(allowed.headers.get('vary')).toContain('Origin');
    const other = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { origin: OTHER, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(other.status).toBe(200);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect(other.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('allows no origin at all without CORS_ORIGINS', async () => {
    const plain = await startTestServer({}, { db: server.db });
    try {
      const res = await fetch(`${plain.url}/graphql`, { method: 'OPTIONS', headers: { origin: ALLOWED, 'access-control-request-method': 'POST' } });
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await plain.close();
    }
  });
});
