// REST and MCP errors in plain words: the field and what is wrong with it, never GraphQL's wording
// ("of required type", "enum"), every missing field named at once; and a task nobody can take answers
// 201 with a `routing` object saying it waits and why.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { test } from './support/fixtures.js';
import type { TestServer } from './support/server.js';

let server: TestServer;
let key: string;
test.beforeAll(async ({ server: s }) => {
  server = s;
  key = (await server.createUser()).apiKey;
});

// graphql-js's own phrases, which must never reach a REST or MCP client.
const GRAPHQL_WORDING = /of required type|does not exist in|enum|cannot represent|Expected (non-nullable )?(value|type)|is not defined by type|data\/\w+ must/i;

function expectPlain(error: { message: string; problems?: Array<{ message: string }> }) {
  expect(error.message).not.toMatch(GRAPHQL_WORDING);
  for (const p of error.problems ?? []) expect(p.message).not.toMatch(GRAPHQL_WORDING);
}

describe('REST errors in plain words', () => {
  it('names every missing field of an empty body in one 400', async () => {
    const task = await server.api.post('/v1/tasks', { key, body: {} });
    expect(task.status).toBe(400);
    expectPlain(task.body.error);
    expect(task.body.error.problems).toEqual(
      expect.arrayContaining([
        { field: 'title', message: 'is required' },
        { field: 'description', message: 'is required' },
      ]),
    );
    expect(task.body.error.message).toMatch(/title is required/);
    expect(task.body.error.message).toMatch(/description is required/);

    // An agent needs a name; an endpoint only when it takes tasks by push (the default), said next.
    const agent = await server.api.post('/v1/agents', { key, body: {} });
    expect(agent.status).toBe(400);
    expectPlain(agent.body.error);
    expect(agent.body.error.field).toBe('name');
    const named = await server.api.post('/v1/agents', { key, body: { name: 'Nameless' } });
    expect(named.status).toBe(400);
    expect(named.body.error).toMatchObject({ field: 'endpoint', message: expect.stringMatching(/endpoint is required unless deliveryMode is "pull"/) });
  });

  it('says which values an enumerated field takes', async () => {
    const res = await server.api.post('/v1/tasks', { key, body: { title: 't', description: 'd', priority: 'asap' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_INPUT', field: 'priority' });
    expectPlain(res.body.error);
    expect(res.body.error.message).toMatch(/^priority must be one of: /);
    for (const value of ['low', 'normal', 'high', 'urgent']) expect(res.body.error.message).toContain(value);

    const discover = await server.api.get('/v1/discover?status=zzz');
    expect(discover.body.error).toMatchObject({ field: 'status' });
    expectPlain(discover.body.error);
  });

  it('says what type a field must be, and names unknown fields', async () => {
    const res = await server.api.post('/v1/tasks', { key, body: { title: 5, description: 'd', maxPriceCents: 'ten', bogus: 1 } });
    expect(res.status).toBe(400);
    expectPlain(res.body.error);
    expect(res.body.error.problems).toEqual(
      expect.arrayContaining([
        { field: 'title', message: 'must be a string' },
        { field: 'maxPriceCents', message: 'must be a whole number' },
        { field: 'bogus', message: 'is not a known field' },
      ]),
    );
    const fail = await server.api.patch('/v1/tasks/tsk_unknown/fail', { key, body: {} });
    expect(fail.body.error).toMatchObject({ field: 'error', message: 'error is required' });
    const route = await server.api.post('/v1/tasks/route', { key, body: { capabilities: ['x'], limit: 'many' } });
    expect(route.body.error).toMatchObject({ field: 'limit', message: 'limit must be a whole number' });
  });

  it('explains an unusable inputSchema without validator jargon', async () => {
    const body = (inputSchema: string) => ({ name: 'Schema agent', endpoint: 'http://127.0.0.1:9/x', inputSchema });
    const badType = await server.api.post('/v1/agents', { key, body: body('{"type":"nope"}') });
    expect(badType.status).toBe(400);
    expect(badType.body.error.field).toBe('inputSchema');
    expectPlain(badType.body.error);
    expect(badType.body.error.message).toMatch(/"type" must be one of: .*object.*string/);
    const badRequired = await server.api.post('/v1/agents', { key, body: body('{"type":"object","required":"x"}') });
    expect(badRequired.body.error.message).toBe('inputSchema is not a usable JSON Schema: "required" must be a list');
  });

  it('answers MCP tool calls in the same words', async () => {
    const client = new Client({ name: 'test-host', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', server.url), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
    try {
      const result = (await client.callTool({ name: 'create_task', arguments: { priority: 'asap' } })) as CallToolResult;
      expect(result.isError).toBe(true);
      const error = (result.structuredContent as { error: { message: string; problems: Array<{ field: string; message: string }> } }).error;
      expectPlain(error);
      expect(error.problems.map((p) => p.field).sort()).toEqual(['description', 'priority', 'title']);
    } finally {
      await client.close();
    }
  });
});

describe('a task nobody can take', () => {
  it('answers 201 with routing saying it waits and why', async () => {
    const res = await server.api.post('/v1/tasks', { key, body: { title: 'Lonely', description: 'No one does this', capabilities: ['underwater-basket-weaving'] } });
    expect(res.status).toBe(201);
    expect(res.body.data.status).toBe('pending');
    expect(res.body.routing).toEqual({ status: 'waiting', agentId: null, reason: 'no active agent offers the capability "underwater-basket-weaving"' });
    expect(res.body.data.routing).toEqual(res.body.routing);
  });

  it('says which agents offer it and why none can take it', async () => {
    const owner = await server.createUser();
    const agent = await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Sleepy', endpoint: 'http://127.0.0.1:9/x', capabilities: ['napping'] } });
    await server.api.put(`/v1/agents/${agent.body.data.id}`, { key: owner.apiKey, body: { status: 'inactive' } });
    const res = await server.api.post('/v1/tasks', { key, body: { title: 'Nap', description: 'Take a nap', capabilities: ['napping'] } });
    expect(res.status).toBe(201);
    expect(res.body.routing).toEqual({ status: 'waiting', agentId: null, reason: '1 agent offers what it needs but none can take it now (1 inactive)' });
  });

  it('answers routed with the agent when one takes it', async () => {
    const owner = await server.createUser();
    const agent = await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Busy bee', endpoint: 'http://127.0.0.1:9/x', capabilities: ['pollination'] } });
    const res = await server.api.post('/v1/tasks', { key, body: { title: 'Pollinate', description: 'Flowers', capabilities: ['pollination'] } });
    expect(res.status).toBe(201);
    expect(res.body.routing).toEqual({ status: 'routed', agentId: agent.body.data.id, reason: null });
  });

  it('is stated in the OpenAPI document and in GraphQL', async () => {
    const openapi = (await server.api.get('/v1/openapi.json')).body;
    const created = openapi.paths['/v1/tasks'].post.responses['201'].content['application/json'].schema;
    expect(JSON.stringify(created)).toContain('routing');
    const gql = await server.api.graphql(`{ __type(name: "TaskRouting") { fields { name } } }`);
    expect(gql.data.__type.fields.map((f: { name: string }) => f.name).sort()).toEqual(['agentId', 'reason', 'status']);
  });
});
