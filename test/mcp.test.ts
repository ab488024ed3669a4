// MCP at POST /mcp, driven by the official SDK client over Streamable HTTP: the tools and their input
// schemas, a task from search to result, and errors with the REST codes and field names.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { callBack } from './support/agent.js';
import { describe, expect, testWith } from './support/fixtures.js';
import { until } from './support/wait.js';

async function connect(url: string, apiKey: string | null): Promise<Client> {
  const client = new Client({ name: 'test-host', version: '1.0.0' });
  const headers: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', url), { requestInit: { headers } }));
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const structured = result.structuredContent as Record<string, any>;
  // The text content carries the same answer for hosts that read only text.
  expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(structured);
  return { isError: result.isError ?? false, body: structured };
}

const test = testWith({
  agentProfile: {
    name: 'Pelican Translator',
    description: 'Translates text between languages',
    capabilities: ['translation'],
    tags: ['language'],
    protocols: ['http'],
  },
});

describe('MCP tools', () => {
  test('lists the six tools with JSON Schema inputs', async ({ server, requester }) => {
    const client = await connect(server.url, requester.apiKey);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['cancel_task', 'create_task', 'get_agent', 'get_task', 'list_my_tasks', 'search_agents']);
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.search_agents!.inputSchema.properties).toMatchObject({ query: { type: ['string', 'null'] }, capabilities: { type: ['array', 'null'] }, protocols: {}, categories: {}, perPage: {}, sort: {} });
    expect(byName.create_task!.inputSchema.required).toEqual(expect.arrayContaining(['title', 'description']));
    expect(byName.create_task!.inputSchema.properties).toMatchObject({ agentId: {}, capabilities: {}, maxPriceCents: {}, input: {}, idempotencyKey: { type: 'string', maxLength: 255 } });
    // The limits of the REST contract are in the schema (the same zod schema checks both).
    expect(JSON.stringify(byName.create_task!.inputSchema.properties!.title)).toContain('maxLength');
    expect(byName.get_task!.inputSchema).toMatchObject({ required: ['id'], properties: { id: { type: 'string' } } });
    expect(byName.cancel_task!.inputSchema.required).toEqual(['id']);
    expect(byName.list_my_tasks!.inputSchema.properties).toMatchObject({ status: {}, limit: {}, cursor: {} });
    await client.close();
  });

  test('runs a task from search to result', async ({ server, requester, agent }) => {
    agent.http.onDelivery((d) => void callBack(d, { result: { translated: 'bonjour' } }));
    const client = await connect(server.url, requester.apiKey);

    const found = await until('the agent in search', async () => {
      const { body } = await call(client, 'search_agents', { query: 'pelican', capabilities: ['translation'] });
      return body.data?.length ? body : null;
    });
    expect(found.data[0]).toMatchObject({ id: agent.id, slug: 'pelican-translator' });

    const detail = await call(client, 'get_agent', { id: 'pelican-translator' });
    expect(detail).toMatchObject({ isError: false, body: { data: { id: agent.id, capabilities: ['translation'] } } });

    const created = await call(client, 'create_task', { title: 'Say hello', description: 'In French', agentId: agent.id, input: { text: 'hello' } });
    expect(created.isError).toBe(false);
    expect(created.body.data).toMatchObject({ title: 'Say hello', agentId: agent.id, input: { text: 'hello' } });
    const id = created.body.data.id as string;

    const done = await until('the result', async () => {
      const { body } = await call(client, 'get_task', { id });
      return body.data.status === 'completed' ? body.data : null;
    });
    expect(done.result).toEqual({ translated: 'bonjour' });
    // The finished task carries the service's receipt, genuine by the service's own check.
    expect(done.receipt).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const verified = await server.api.post('/v1/receipts/verify', { body: { receipt: done.receipt } });
    expect(verified.body.data).toMatchObject({ valid: true });

    // A retried call with the same idempotencyKey is the same task.
    const once = await call(client, 'create_task', { title: 'Once', description: 'd', agentId: agent.id, idempotencyKey: 'mcp-once' });
    const again = await call(client, 'create_task', { title: 'Once', description: 'd', agentId: agent.id, idempotencyKey: 'mcp-once' });
    expect(again.body.data.id).toBe(once.body.data.id);

    const mine = await call(client, 'list_my_tasks', { status: 'completed' });
    expect(mine.body.data.map((t: { id: string }) => t.id)).toContain(id);
    await client.close();
  });

  test('cancels a task, and a second cancel is a conflict with its status', async ({ server, requester, agent }) => {
    agent.http.onDelivery(null);
    const client = await connect(server.url, requester.apiKey);
    const created = await call(client, 'create_task', { title: 'Wait', description: 'Never answered', agentId: agent.id });
    const id = created.body.data.id as string;
    const cancelled = await call(client, 'cancel_task', { id });
    expect(cancelled).toMatchObject({ isError: false, body: { data: { id, status: 'cancelled' } } });
    const again = await call(client, 'cancel_task', { id });
    expect(again).toMatchObject({ isError: true, body: { error: { code: 'CONFLICT', status: 'cancelled' } } });
    await client.close();
  });
});

describe('MCP errors', () => {
  test('a bad argument names the field as REST does', async ({ server, requester }) => {
    const client = await connect(server.url, requester.apiKey);
    const missing = await call(client, 'create_task', { description: 'no title' });
    expect(missing).toMatchObject({ isError: true, body: { error: { code: 'INVALID_INPUT', field: 'title' } } });
    const long = await call(client, 'create_task', { title: 'x'.repeat(10_000), description: 'd' });
    expect(long).toMatchObject({ isError: true, body: { error: { code: 'INVALID_INPUT', field: 'title' } } });
    const unknown = await call(client, 'get_task', { id: 'x', verbose: true });
    expect(unknown).toMatchObject({ isError: true, body: { error: { code: 'INVALID_INPUT', field: 'verbose' } } });
    const badStatus = await call(client, 'list_my_tasks', { status: 'sleeping' });
    expect(badStatus).toMatchObject({ isError: true, body: { error: { code: 'INVALID_INPUT', field: 'status' } } });
    await client.close();
  });

  test('unknown and foreign tasks are NOT_FOUND or FORBIDDEN', async ({ server, requester, owner, task }) => {
    const client = await connect(server.url, requester.apiKey);
    const unknown = await call(client, 'get_task', { id: '00000000-0000-0000-0000-000000000000' });
    expect(unknown).toMatchObject({ isError: true, body: { error: { code: 'NOT_FOUND' } } });
    await client.close();
    const stranger = await server.createUser();
    const other = await connect(server.url, stranger.apiKey);
    const foreign = await call(other, 'cancel_task', { id: task.id });
    expect(foreign.isError).toBe(true);
    expect(['FORBIDDEN', 'NOT_FOUND']).toContain(foreign.body.error.code);
    await other.close();
    void owner;
  });

  test('an unknown tool is a protocol error', async ({ server, requester }) => {
    const client = await connect(server.url, requester.apiKey);
    await expect(client.callTool({ name: 'delete_everything', arguments: {} })).rejects.toThrow(/unknown tool/);
    await client.close();
  });

  test('needs a valid Bearer credential', async ({ server }) => {
    await expect(connect(server.url, null)).rejects.toThrow();
    await expect(connect(server.url, 'tmk_not_a_key')).rejects.toThrow();
    const res = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
    // Where an MCP host finds how to get a token (RFC 9728), from nothing but the URL.
    expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${server.app.services.deps.urls.base}/.well-known/oauth-protected-resource/mcp"`);
    expect(((await res.json()) as any).error.code).toBe('UNAUTHENTICATED');
  });

  test('malformed JSON is a JSON-RPC parse error; GET is 405', async ({ server, requester }) => {
    const headers = { authorization: `Bearer ${requester.apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const bad = await fetch(`${server.url}/mcp`, { method: 'POST', headers, body: '{"jsonrpc":' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error.code).toBe(-32700);
    const get = await fetch(`${server.url}/mcp`, { headers });
    expect(get.status).toBe(405);
  });
});
