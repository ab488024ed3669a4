// /mcp against a hostile caller: each call of a JSON-RPC batch counts against the rate limit, malformed
// tools/call parameters answer -32602 naming the field (no zod dump, no -32603), errors carry their
// prefix once as the official client shows them, and a web page from another origin is refused
// (DNS-rebinding protection of the MCP transport, 2025-11-25).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect } from 'vitest';
import { testWith } from './support/fixtures.js';

const test = testWith({
  serverEnv: { RATE_LIMIT_PER_MINUTE: '20', CORS_ORIGINS: 'https://app.example.com', PUBLIC_BASE_URL: 'https://market.example.com' },
});

const rpc = (id: number, method: string, params?: unknown) => ({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });

async function post(url: string, key: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(new URL('/mcp', url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${key}`, ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : null };
}

const remaining = (headers: Headers) => Number(/r=(\d+)/.exec(headers.get('ratelimit') ?? '')?.[1]);

describe('batches and the rate limit', () => {
  test('counts each call of a batch, and refuses a batch larger than what is left', async ({ server }) => {
    const { apiKey } = await server.createUser();
    const one = await post(server.url, apiKey, rpc(1, 'tools/list'));
    expect(one.status).toBe(200);
    expect(remaining(one.headers)).toBe(19);

    const five = await post(server.url, apiKey, [1, 2, 3, 4, 5].map((id) => rpc(id, 'tools/list')));
    expect(five.status).toBe(200);
    expect(five.body).toHaveLength(5);
    expect(remaining(five.headers)).toBe(14);

    // More than 50 calls in one batch: refused whatever the budget.
    const huge = await post(server.url, apiKey, Array.from({ length: 51 }, (_, i) => rpc(i + 1, 'tools/list')));
    expect(huge.status).toBe(400);
    expect(huge.body.error).toMatchObject({ code: -32600, message: expect.stringMatching(/at most 50 calls/) });

    // 30 calls against the 13 left: refused whole, none of them run.
    const over = await post(server.url, apiKey, Array.from({ length: 30 }, (_, i) => rpc(i + 1, 'tools/list')));
    expect(over.status).toBe(429);
    expect(over.body.error).toMatchObject({ code: 'RATE_LIMITED' });
    expect(over.headers.get('retry-after')).toMatch(/^\d+$/);

    const after = await post(server.url, apiKey, rpc(1, 'tools/list'));
    expect(after.status).toBe(429);
  });

  test('other JSON-RPC routes take no batch: A2A and GraphQL refuse a list', async ({ server }) => {
    const { apiKey } = await server.createUser();
    const res = await fetch(new URL('/a2a', server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}`, 'a2a-version': '1.0' },
      body: JSON.stringify([rpc(1, 'GetTask', { id: 'x' }), rpc(2, 'GetTask', { id: 'y' })]),
    });
    expect(await res.json()).toMatchObject({ error: { code: -32600 } });
    const graphql = await fetch(new URL('/graphql', server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
      body: JSON.stringify([{ query: '{ __typename }' }, { query: '{ __typename }' }]),
    });
    expect(graphql.status).toBe(400);
  });
});

describe('malformed tools/call', () => {
  const cases: Array<[string, unknown, RegExp]> = [
    ['params {}', {}, /params\.name/],
    ['arguments a string', { name: 'get_task', arguments: 'x' }, /params\.arguments/],
    ['arguments a list', { name: 'get_task', arguments: [1] }, /params\.arguments/],
    ['name a number', { name: 5, arguments: {} }, /params\.name/],
  ];
  for (const [name, params, field] of cases) {
    test(`${name}: -32602 naming the field, in plain words`, async ({ server }) => {
      const { apiKey } = await server.createUser();
      const { status, body, text } = await post(server.url, apiKey, rpc(7, 'tools/call', params));
      expect(status).toBe(200);
      expect(body).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32602 } });
      expect(body.error.message).toMatch(field);
      expect(text).not.toMatch(/MCP error|expected|received|"code":\s*"invalid|Invalid input|\\n/);
    });
  }

  test('other methods with malformed params: -32602 naming the field, not -32603', async ({ server }) => {
    const { apiKey } = await server.createUser();
    for (const [method, params, field] of [
      ['initialize', {}, /params\.protocolVersion/],
      ['tools/list', { cursor: 5 }, /params\.cursor/],
    ] as const) {
      const { body, text } = await post(server.url, apiKey, rpc(3, method, params));
      expect(body, method).toMatchObject({ id: 3, error: { code: -32602 } });
      expect(body.error.message).toMatch(field);
      expect(text).not.toMatch(/MCP error|\\n/);
    }
  });

  test('the official client shows an error with its prefix once', async ({ server }) => {
    const { apiKey } = await server.createUser();
    const client = new Client({ name: 'test-host', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', server.url), { requestInit: { headers: { authorization: `Bearer ${apiKey}` } } }));
    const error = await client.callTool({ name: 'no_such_tool', arguments: {} }).then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/^MCP error -32602: unknown tool no_such_tool/);
    expect(error?.message.match(/MCP error/g)).toHaveLength(1);
    await client.close();
  });
});

describe('Origin', () => {
  test('refuses a page of another origin with 403, serves its own, the allowed ones and callers without Origin', async ({ server }) => {
    const { apiKey } = await server.createUser();
    const evil = await post(server.url, apiKey, rpc(1, 'tools/list'), { origin: 'http://evil.example.com' });
    expect(evil.status).toBe(403);
    expect(evil.body.error.message).toMatch(/Origin/);
    expect(evil.text).not.toContain('tools');
    // Refused before the credentials are looked at: no key is needed to be told no.
    const noKey = await fetch(new URL('/mcp', server.url), { method: 'POST', headers: { origin: 'null', 'content-type': 'application/json' }, body: '{}' });
    expect(noKey.status).toBe(403);

    for (const origin of ['https://market.example.com', 'https://app.example.com']) {
      const ok = await post(server.url, apiKey, rpc(1, 'tools/list'), { origin });
      expect(ok.status).toBe(200);
      expect(ok.body.result.tools.length).toBeGreaterThan(0);
    }
    expect((await post(server.url, apiKey, rpc(1, 'tools/list'))).status).toBe(200);
  });
});
