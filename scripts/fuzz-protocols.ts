// The fuzz's cases for the endpoints of other protocols (scripts/fuzz.ts runs them): A2A JSON-RPC at
// /a2a and /a2a/agents/{slug} in both versions (1.0 method names with A2A-Version 1.0, v0.3 names with
// 0.3 and without the header), the agent cards, MCP at /mcp, and the A2A push form of the task callback.
// A JSON-RPC answer may not be -32603 for a malformed request, and no answer may carry internal text.
import { A2A_V1_METHODS } from '../src/a2a/route.js';

export type Send = (method: string, path: string, init?: { body?: string; headers?: Record<string, string>; auth?: boolean; timeoutMs?: number }) => Promise<{ status: number; text: string }>;
// graphql, jsonRpc, oauth: the protocol's own error shape, which names no `field` in a 400.
export type Judge = (target: string, name: string, status: number, text: string, opts?: { graphql?: boolean; jsonRpc?: boolean; oauth?: boolean }) => void;

export interface ProtocolFuzz {
  send: Send;
  judge: Judge;
  budgetLeft(): boolean;
  // A slug of the caller's agent (may be unknown: the routes must still answer in words), a task id and
  // that task's token when the fuzz could catch its delivery.
  slug: string;
  taskId: string;
  taskToken: string | null;
  // The values one method or argument gets (all of them, or a few in the fuzz's quick mode).
  some?: <T>(list: readonly T[]) => readonly T[];
}

const NUL = '\u0000';
const rpc = (method: string, params?: unknown, id: unknown = 1) => JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });

// Parameters no method can take.
const hostileParams: Record<string, unknown> = {
  'no params': undefined,
  'params {}': {},
  'id an object': { id: {} },
  'id a number': { id: 1 },
  'id a list': { id: ['x'] },
  'id 100 000 characters': { id: 'x'.repeat(100_000) },
  'id with NUL': { id: `tsk_${NUL}` },
  'name an object': { name: {} },
  'taskId an object': { taskId: {}, id: {} },
  'message null': { message: null },
  'message a string': { message: 'hello' },
  'parts of every kind': { message: { role: 'ROLE_USER', messageId: 'm1', parts: [1, 'x', null] } },
  'parts null': { message: { role: 'user', messageId: 'm1', parts: null, kind: 'message' } },
  'a part of nulls': { message: { role: 'user', messageId: 'm1', parts: [{ text: null, data: null, kind: null }] } },
  'configuration a list': { message: null, configuration: [1] },
  'push config hostile': { taskId: 'tsk_unknown', pushNotificationConfig: { url: 5, token: {} }, id: {}, config: null },
  'historyLength negative': { id: 'tsk_unknown', historyLength: -1 },
  'pageSize huge': { pageSize: 1e308, pageToken: {} },
  'metadata deep': { metadata: JSON.parse('{"a":'.repeat(200) + '1' + '}'.repeat(200)) as unknown },
};
const envelopes: Record<string, string> = {
  'not JSON': '{"jsonrpc":',
  'an empty list': '[]',
  'a list of numbers': '[1,2]',
  'JSON null': 'null',
  'no jsonrpc': JSON.stringify({ id: 1, method: 'GetTask' }),
  'method a number': JSON.stringify({ jsonrpc: '2.0', id: 1, method: 5 }),
  'id an object': JSON.stringify({ jsonrpc: '2.0', id: {}, method: 'GetTask', params: { id: 'x' } }),
  'params a list': JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: [1] }),
  'an unknown method': rpc('tasks/explode', {}),
  // Names of Object.prototype: a lookup that sees them finds a function, not a method.
  'method __proto__': rpc('__proto__', {}),
  'method constructor': rpc('constructor', {}),
  'method toString': rpc('toString', {}),
  'method hasOwnProperty': rpc('hasOwnProperty', {}),
  'nested 5 000 deep': '{"a":'.repeat(5000) + '1' + '}'.repeat(5000),
};

const V03_METHODS = [
  'message/send',
  'message/stream',
  'tasks/get',
  'tasks/cancel',
  'tasks/resubscribe',
  'tasks/pushNotificationConfig/set',
  'tasks/pushNotificationConfig/get',
  'tasks/pushNotificationConfig/list',
  'tasks/pushNotificationConfig/delete',
];

export async function fuzzProtocols(f: ProtocolFuzz): Promise<void> {
  await fuzzA2A(f);
  await fuzzCards(f);
  await fuzzMcp(f);
  await fuzzPushCallback(f);
}

async function fuzzA2A(f: ProtocolFuzz) {
  const paths = ['/a2a', `/a2a/agents/${encodeURIComponent(f.slug)}`];
  const versions: Array<[string, Record<string, string>, string[]]> = [
    ['1.0', { 'a2a-version': '1.0' }, [...A2A_V1_METHODS]],
    ['0.3', { 'a2a-version': '0.3' }, V03_METHODS],
    ['no A2A-Version', {}, V03_METHODS],
  ];
  for (const path of paths) {
    for (const [version, headers, methods] of versions) {
      const target = `A2A ${path.startsWith('/a2a/agents') ? '/a2a/agents/{slug}' : '/a2a'} (${version})`;
      for (const [name, body] of Object.entries(envelopes)) {
        if (!f.budgetLeft()) return;
        const res = await f.send('POST', path, { body, headers });
        f.judge(target, `envelope: ${name}`, res.status, res.text, { jsonRpc: true });
      }
      for (const method of methods) {
        for (const [name, params] of (f.some ?? ((l) => l))(Object.entries(hostileParams))) {
          if (!f.budgetLeft()) return;
          // A streaming method that starts a stream is cut after a moment: only its first answer matters.
          const res = await f.send('POST', path, { body: rpc(method, params), headers, timeoutMs: 3000 });
          f.judge(target, `${method}: ${name}`, res.status, res.text, { jsonRpc: true });
        }
      }
    }
  }
  // The transport's own refusals.
  const refusals: Array<[string, string, { body?: string; headers?: Record<string, string> }]> = [
    ['GET', 'GET /a2a', {}],
    ['POST', 'text/plain body', { body: rpc('GetTask', { id: 'x' }), headers: { 'content-type': 'text/plain' } }],
    ['POST', 'A2A-Version 9.9', { body: rpc('GetTask', { id: 'x' }), headers: { 'a2a-version': '9.9' } }],
    ['POST', 'A2A-Version with NUL-like bytes', { body: rpc('GetTask', { id: 'x' }), headers: { 'a2a-version': '1.0, 0.3' } }],
  ];
  for (const [method, name, init] of refusals) {
    if (!f.budgetLeft()) return;
    const res = await f.send(method, '/a2a', init);
    f.judge('A2A /a2a', name, res.status, res.text, { jsonRpc: true });
  }
}

async function fuzzCards(f: ProtocolFuzz) {
  const slugs = [f.slug, 'unknown', '%zz', '%00', 'x'.repeat(5000), '..%2F..%2Fetc', "'; DROP TABLE agents; --"];
  const cases: Array<[string, string, string]> = [
    ['GET', '/.well-known/agent-card.json', 'the marketplace card'],
    ['HEAD', '/.well-known/agent-card.json', 'HEAD'],
    ['POST', '/.well-known/agent-card.json', 'POST'],
    ['GET', '/.well-known/agent-card.json?x=%zz', 'a malformed query'],
    ...slugs.map((s): [string, string, string] => ['GET', `/a2a/agents/${s}/.well-known/agent-card.json`, `slug ${s.slice(0, 40)}`]),
    ['DELETE', `/a2a/agents/${f.slug}/.well-known/agent-card.json`, 'DELETE'],
  ];
  for (const [method, path, name] of cases) {
    if (!f.budgetLeft()) return;
    const res = await f.send(method, path, { auth: false });
    f.judge('A2A agent cards', name, res.status, res.text, { jsonRpc: true });
  }
}

async function fuzzMcp(f: ProtocolFuzz) {
  const headers = { accept: 'application/json, text/event-stream' };
  const target = 'MCP /mcp';
  const toolsRes = await f.send('POST', '/mcp', { body: rpc('tools/list'), headers });
  let tools: Array<{ name: string; inputSchema?: { properties?: Record<string, unknown> } }> = [];
  try {
    tools = (JSON.parse(toolsRes.text) as { result?: { tools?: typeof tools } }).result?.tools ?? [];
  } catch {
    // judged below
  }
  f.judge(target, 'tools/list', toolsRes.status, toolsRes.text, { jsonRpc: true });

  const cases: Record<string, { body?: string; headers?: Record<string, string>; method?: string }> = {
    ...Object.fromEntries(Object.entries(envelopes).map(([name, body]) => [`envelope: ${name}`, { body }])),
    'a batch of 60': { body: JSON.stringify(Array.from({ length: 60 }, (_, i) => JSON.parse(rpc('tools/list', undefined, i)) as unknown)) },
    'a batch of malformed calls': { body: `[${rpc('tools/call', {}, 1)},${rpc('tools/call', { name: 'get_task', arguments: 'x' }, 2)}]` },
    'initialize with params {}': { body: rpc('initialize', {}) },
    'initialize with a hostile protocolVersion': { body: rpc('initialize', { protocolVersion: { a: 1 }, capabilities: 'x', clientInfo: null }) },
    'tools/list with a number cursor': { body: rpc('tools/list', { cursor: 5 }) },
    'tools/call params {}': { body: rpc('tools/call', {}) },
    'tools/call params null': { body: rpc('tools/call', null) },
    'tools/call arguments a string': { body: rpc('tools/call', { name: 'get_task', arguments: 'x' }) },
    'tools/call arguments a list': { body: rpc('tools/call', { name: 'get_task', arguments: [1] }) },
    'tools/call name a number': { body: rpc('tools/call', { name: 5 }) },
    'tools/call an unknown tool': { body: rpc('tools/call', { name: `no_such_tool${NUL}`, arguments: {} }) },
    'tools/call a tool named constructor': { body: rpc('tools/call', { name: 'constructor', arguments: {} }) },
    'tools/call a tool named __proto__': { body: rpc('tools/call', { name: '__proto__', arguments: { constructor: 1, __proto__: { a: 1 } } }) },
    'tools/call _meta a string': { body: rpc('tools/call', { name: 'get_task', arguments: { id: 'x' }, _meta: 'x' }) },
    'an unknown method': { body: rpc('resources/explode', {}) },
    'a notification only': { body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) },
    'no Accept': { body: rpc('tools/list'), headers: { accept: 'text/html' } },
    'text/plain body': { body: rpc('tools/list'), headers: { 'content-type': 'text/plain' } },
    'another Origin': { body: rpc('tools/list'), headers: { origin: 'http://evil.example.com' } },
    'GET': { method: 'GET' },
    'DELETE': { method: 'DELETE' },
  };
  for (const [name, c] of Object.entries(cases)) {
    if (!f.budgetLeft()) return;
    const res = await f.send(c.method ?? 'POST', '/mcp', { body: c.body, headers: { ...headers, ...c.headers } });
    f.judge(target, name, res.status, res.text, { jsonRpc: true });
  }
  // Each tool's arguments, one at a time, set to values of every kind.
  const values: Record<string, unknown> = { null: null, 'a number': 1e308, 'a string': 'text', 'an object': { a: 1 }, 'a list': [null], 'a NUL': `a${NUL}`, 'a long string': 'x'.repeat(100_000) };
  for (const tool of tools) {
    for (const argument of [...Object.keys(tool.inputSchema?.properties ?? {}), 'notAnArgument']) {
      for (const [name, value] of (f.some ?? ((l) => l))(Object.entries(values))) {
        if (!f.budgetLeft()) return;
        const res = await f.send('POST', '/mcp', { body: rpc('tools/call', { name: tool.name, arguments: { [argument]: value } }), headers });
        f.judge(`MCP tool ${tool.name}`, `${argument}: ${name}`, res.status, res.text, { jsonRpc: true });
      }
    }
  }
}

async function fuzzPushCallback(f: ProtocolFuzz) {
  const bodies: Record<string, string> = {
    'invalid JSON': '{"task":',
    'a JSON list': '[1]',
    'JSON null': 'null',
    'task a string': JSON.stringify({ task: 'x' }),
    'task of nulls': JSON.stringify({ task: { id: null, contextId: null, status: null, artifacts: null, history: null } }),
    'task with a hostile status': JSON.stringify({ task: { id: 'r1', contextId: 'c', status: { state: { a: 1 }, message: { parts: [null, 1, 'x'] } } } }),
    'task with hostile artifacts': JSON.stringify({ task: { id: 'r1', contextId: 'c', status: { state: 'TASK_STATE_COMPLETED' }, artifacts: [null, { parts: 'x' }, { parts: [null] }] } }),
    'statusUpdate with parts of every kind': JSON.stringify({ statusUpdate: { taskId: 'r1', status: { state: 'TASK_STATE_WORKING', message: { parts: [null, 1, 'x', { text: 5 }] } } } }),
    'statusUpdate with message parts an object': JSON.stringify({ statusUpdate: { taskId: 'r1', status: { state: 5, message: { parts: { text: 'x' } } } } }),
    'statusUpdate taskId an object': JSON.stringify({ statusUpdate: { taskId: {}, status: null } }),
    'artifactUpdate hostile': JSON.stringify({ artifactUpdate: { taskId: 'r1', artifact: { parts: [null] } } }),
    'message of nulls': JSON.stringify({ message: { parts: [null], role: null } }),
    'a 100 000-character state': JSON.stringify({ statusUpdate: { taskId: 'r1', status: { state: 'x'.repeat(100_000) } } }),
    'nested 5 000 deep': '{"task":' + '{"a":'.repeat(5000) + '1' + '}'.repeat(5001),
  };
  const tokens: Array<[string, string]> = [['a wrong token', 'not-the-task-token']];
  if (f.taskToken) tokens.push(['the task token', f.taskToken]);
  for (const [tokenName, token] of tokens) {
    for (const [name, body] of Object.entries(bodies)) {
      if (!f.budgetLeft()) return;
      const res = await f.send('POST', `/v1/tasks/${encodeURIComponent(f.taskId)}/callback`, {
        body,
        auth: false,
        headers: { 'content-type': 'application/a2a+json', authorization: `Bearer ${token}` },
      });
      f.judge('A2A push POST /v1/tasks/{id}/callback', `${tokenName}: ${name}`, res.status, res.text);
    }
  }
  const noToken = await f.send('POST', `/v1/tasks/${encodeURIComponent(f.taskId)}/callback`, { body: '{}', auth: false, headers: { 'x-a2a-notification-token': '' , 'content-type': 'application/a2a+json' } });
  f.judge('A2A push POST /v1/tasks/{id}/callback', 'no token', noToken.status, noToken.text);
}
