// A name from a request that selects a handler never finds one of Object.prototype's (issue 46, item 12):
// `__proto__`, `constructor`, `toString`, `hasOwnProperty`, `valueOf` as a JSON-RPC method at /a2a and
// /a2a/agents/{slug} (A2A 1.0 and 0.3) and at /mcp, and as an MCP tool name, are unknown methods
// (-32601) or unknown tools (-32602), never a 500 or -32603.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect } from 'vitest';
import { test } from './support/fixtures.js';

const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];

async function rpc(url: string, key: string, method: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${key}`, ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: {} }),
  });
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) as { error?: { code: number; message: string } } };
}

describe('A2A', () => {
  test('answers method-not-found at /a2a and /a2a/agents/{slug}, in both versions', async ({ server, owner, requester, agent }) => {
    const slug = (await server.api.get(`/v1/agents/${agent.id}`, { key: owner.apiKey })).body.data.slug as string;
    for (const path of ['/a2a', `/a2a/agents/${slug}`]) {
      for (const version of [{ 'a2a-version': '1.0' }, {}] as Record<string, string>[]) {
        for (const method of PROTOTYPE_NAMES) {
          const answer = await rpc(`${server.url}${path}`, requester.apiKey, method, version);
          expect(answer.status, `${path} ${method} ${JSON.stringify(version)}: ${answer.text}`).toBe(200);
          expect(answer.body.error?.code, `${path} ${method}: ${answer.text}`).toBe(-32601);
          expect(answer.text).not.toMatch(/INTERNAL|is not a function|Cannot read/);
        }
      }
    }
  });
});

describe('MCP', () => {
  test('answers method-not-found for the names, over the wire', async ({ server, requester }) => {
    for (const method of PROTOTYPE_NAMES) {
      const answer = await rpc(`${server.url}/mcp`, requester.apiKey, method);
      expect(answer.body.error?.code, `${method}: ${answer.text}`).toBe(-32601);
    }
  });

  test('the official client calling a tool by those names hears "unknown tool"', async ({ server, requester }) => {
    const client = new Client({ name: 'prototype-names', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', server.url), { requestInit: { headers: { authorization: `Bearer ${requester.apiKey}` } } }));
    try {
      for (const name of PROTOTYPE_NAMES) {
        await expect(client.callTool({ name, arguments: {} })).rejects.toThrow(/unknown tool/);
      }
    } finally {
      await client.close();
    }
  });
});
