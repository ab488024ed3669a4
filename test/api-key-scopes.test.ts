// API keys with scopes: created, listed and revoked over /v1/api-keys; a call outside a key's scopes is
// refused 403 INSUFFICIENT_SCOPE naming the scope, on every transport (REST, GraphQL over HTTP, WebSocket,
// SSE, MCP, A2A), because the check is in the schema they all run through.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { test } from './support/fixtures.js';
import type { TestServer } from './support/server.js';
import { openSocket, openSse } from './support/subscriptions.js';

let server: TestServer;
let user: { id: string; apiKey: string };

test.beforeAll(async ({ server: s }) => {
  server = s;
  user = await server.createUser();
});
afterAll(async () => {
});

async function newKey(body: Record<string, unknown>, key = user.apiKey) {
  const res = await server.api.post('/v1/api-keys', { key, body });
  return res;
}

describe('/v1/api-keys', () => {
  it('creates a key with scopes, shown once; lists it without the key, with lastUsedAt; revokes it', async () => {
    const created = await newKey({ name: 'reader', scopes: ['tasks:read'] });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({ id: expect.any(String), name: 'reader', prefix: created.body.data.apiKey.slice(0, 12), scopes: ['tasks:read'], expiresAt: null, apiKey: expect.stringMatching(/^tmk_/) });
    const key = created.body.data.apiKey as string;
    expect((await server.api.get('/v1/tasks', { key })).status).toBe(200);

    const list = await server.api.get('/v1/api-keys', { key: user.apiKey });
    expect(list.status).toBe(200);
    const listed = list.body.data.find((k: { id: string }) => k.id === created.body.data.id);
    expect(listed).toMatchObject({ name: 'reader', scopes: ['tasks:read'], lastUsedAt: expect.any(String), revokedAt: null });
    expect(JSON.stringify(list.body)).not.toContain(key);
    // A key made without scopes has all of them.
    expect(list.body.data.find((k: { name: string }) => k.name === 'initial').scopes).toEqual(['tasks:read', 'tasks:write', 'tasks:work', 'agents:read', 'agents:write', 'billing', 'account']);

    const revoked = await server.api.delete(`/v1/api-keys/${created.body.data.id}`, { key: user.apiKey });
    expect(revoked.status).toBe(200);
    const refused = await server.api.get('/v1/tasks', { key });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('UNAUTHENTICATED');
    // Another user's key is not found for this one.
    const other = await server.createUser();
    expect((await server.api.delete(`/v1/api-keys/${created.body.data.id}`, { key: other.apiKey })).status).toBe(404);
  });

  it('refuses unknown scopes, an empty list, a past expiry, and a key wider than the one asking', async () => {
    const unknown = await newKey({ scopes: ['tasks:read', 'everything'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 'INVALID_INPUT', field: 'scopes' });
    expect(unknown.body.error.message).toContain('"everything" is not a scope');
    expect((await newKey({ scopes: [] })).body.error).toMatchObject({ code: 'INVALID_INPUT', field: 'scopes' });
    const past = await newKey({ expiresAt: new Date(Date.now() - 60_000).toISOString() });
    expect(past.status).toBe(400);
    expect(past.body.error).toMatchObject({ code: 'INVALID_INPUT', field: 'expiresAt' });

    const manager = (await newKey({ scopes: ['account', 'tasks:read'] })).body.data.apiKey as string;
    const wider = await newKey({ scopes: ['billing'] }, manager);
    expect(wider.status).toBe(403);
    expect(wider.body.error).toMatchObject({ code: 'INSUFFICIENT_SCOPE', scope: 'billing' });
    expect((await newKey({}, manager)).body.error).toMatchObject({ code: 'INSUFFICIENT_SCOPE' });
    expect((await newKey({ scopes: ['tasks:read'] }, manager)).status).toBe(201);
  });

  it('stops authenticating a key after its expiry', async () => {
    const created = await newKey({ name: 'short', expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    const key = created.body.data.apiKey as string;
    expect((await server.api.get('/v1/tasks', { key })).status).toBe(200);
    await server.sql.updateTable('apiKeys').set({ expiresAt: new Date(Date.now() - 1000) }).where('id', '=', created.body.data.id).execute();
    const refused = await server.api.get('/v1/tasks', { key });
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toContain('expired');
  });
});

describe('a key outside its scopes', () => {
  let reader: string; // tasks:read only
  let agentsOnly: string; // agents:read only

  beforeAll(async () => {
    reader = (await newKey({ name: 'reader', scopes: ['tasks:read'] })).body.data.apiKey;
    agentsOnly = (await newKey({ name: 'agents', scopes: ['agents:read'] })).body.data.apiKey;
  });

  it('REST: 403 INSUFFICIENT_SCOPE naming the scope', async () => {
    const res = await server.api.post('/v1/agents', { key: reader, body: { name: 'X', endpoint: 'https://example.com/hook' } });
    expect(res.status).toBe(403);
    expect(res.body.error).toEqual({ code: 'INSUFFICIENT_SCOPE', message: 'this credential lacks the "agents:write" scope', scope: 'agents:write' });
    expect((await server.api.get('/v1/billing', { key: reader })).body.error).toMatchObject({ code: 'INSUFFICIENT_SCOPE', scope: 'billing' });
    expect((await server.api.get('/v1/tasks', { key: reader })).status).toBe(200);
  });

  it('GraphQL over HTTP: the error with its code and scope', async () => {
    const res = await server.api.post('/graphql', { key: reader, body: { query: 'query { myAgents { id } }' } });
    expect(res.body.errors[0].extensions).toEqual({ code: 'INSUFFICIENT_SCOPE', scope: 'agents:read' });
    const allowed = await server.api.post('/graphql', { key: agentsOnly, body: { query: 'query { myAgents { id } }' } });
    expect(allowed.body.errors).toBeUndefined();
  });

  it('WebSocket and SSE: the subscription is refused', async () => {
    const socket = openSocket(server.url, agentsOnly, 'subscription { taskEvents { id status } }', {});
    await socket.ended;
    expect(JSON.stringify(socket.errors)).toContain('INSUFFICIENT_SCOPE');
    await socket.dispose();
    const sse = await openSse(server.url, agentsOnly, 'subscription { taskEvents { id status } }', {});
    await sse.ended;
    expect(JSON.stringify(sse.body ?? sse.events)).toContain('INSUFFICIENT_SCOPE');
  });

  it('MCP: the tool answers the error', async () => {
    const client = new Client({ name: 'scope-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', server.url), { requestInit: { headers: { authorization: `Bearer ${agentsOnly}` } } }));
    try {
      const result = (await client.callTool({ name: 'list_my_tasks', arguments: {} })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ error: { code: 'INSUFFICIENT_SCOPE', scope: 'tasks:read' } });
    } finally {
      await client.close();
    }
  });

  it('A2A: the JSON-RPC error carries the code', async () => {
    const res = await fetch(`${server.url}/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0', authorization: `Bearer ${agentsOnly}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {} }),
    });
    const body = (await res.json()) as { error?: unknown };
    expect(JSON.stringify(body.error)).toContain('INSUFFICIENT_SCOPE');
    const allowed = await fetch(`${server.url}/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0', authorization: `Bearer ${reader}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {} }),
    });
    expect(((await allowed.json()) as { error?: unknown }).error).toBeUndefined();
  });
});
