// Hostile input at every /v1 route and at /graphql: none may answer 500, and every refusal is a coded
// JSON error. Then the specific cases, each with the status and field it must name.
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { routes } from '../src/rest/routes/index.js';
import { MAX_INPUT_DEPTH } from '../src/services/unsafe-input.js';
import { test, type TestUser } from './support/fixtures.js';
import type { TestServer } from './support/server.js';

let server: TestServer;
let owner: TestUser;
let ids: Record<string, string>;

test.beforeAll(async ({ server: s, owner: o }) => {
  [server, owner] = [s, o];
  const agent = await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Target', endpoint: 'http://127.0.0.1:9/x', capabilities: ['target'] } });
  const task = await server.api.post('/v1/tasks', {
    key: owner.apiKey,
    body: { title: 'Target task', description: 'To aim at', agentId: agent.body.data.id, input: { a: 1 } },
  });
  ids = { id: task.body.data.id, slugOrId: 'target', deliveryId: 'dlv_unknown' };
  ids.agentId = agent.body.data.id;
});

const deep = (open: string, close: string, inner: string, n = 10_000) => open.repeat(n) + inner + close.repeat(n);
const NUL = '\u0000';

// Bodies that must be refused by every route that reads a body.
const hostileBodies: Record<string, string> = {
  'an object nested 10 000 deep': deep('{"a":', '}', '1'),
  'a field nested 10 000 deep': `{"input":${deep('[', ']', '')},"result":${deep('{"a":', '}', '1')}}`,
  'NUL in every string field': JSON.stringify(
    Object.fromEntries(
      ['title', 'description', 'name', 'endpoint', 'error', 'taskToken', 'paymentMethodId', 'clientSecret', 'agentId', 'inputSchema'].map((f) => [f, `x${NUL}y`]),
    ),
  ),
  'NUL in a JSON key': JSON.stringify({ input: { [`k${NUL}`]: 1 }, result: { [`k${NUL}`]: 1 } }),
  'NUL in a list': JSON.stringify({ capabilities: [NUL], result: [NUL], input: { l: [NUL] } }),
  'a lone surrogate': '{"title":"\\ud800","result":{"a":"\\udc00"},"input":{"a":"\\ud800"},"error":"\\ud800"}',
  'not JSON': '{"title":',
  'a JSON array': '[1,2]',
  'a JSON string': '"text"',
};

// Malformed escapes, NUL, and the UTF-8 bytes of a lone surrogate (not valid UTF-8).
const hostileParams = ['%zz', '%E0%A4%A', '%00', 'a%00b', '%ED%A0%80'];

const hostileQueries = [
  `q=${encodeURIComponent(NUL)}`,
  'q=%zz',
  `status=${encodeURIComponent(NUL)}`,
  `cursor=${encodeURIComponent(NUL)}`,
  'limit=1e999',
  'per_page=-1&page=99999999999999999999',
  `role=${encodeURIComponent(NUL)}`,
  `capability=${encodeURIComponent(NUL)}`,
  'x=' + 'a'.repeat(20_000),
];

function fill(path: string, params: (name: string) => string): string {
  return path.replace(/:(\w+)/g, (_m, name: string) => params(name));
}

async function expectCodedError(res: Response, what: string) {
  const text = await res.text();
  expect(res.status, `${what}: ${text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(res.status, `${what}: ${text.slice(0, 300)}`).toBeLessThan(500);
  expect(res.headers.get('content-type'), what).toMatch(/^application\/json/);
  const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
  expect(typeof body.error?.code, `${what}: ${text.slice(0, 300)}`).toBe('string');
  expect(typeof body.error?.message, what).toBe('string');
  return body.error as { code: string; message: string; field?: string };
}

const send = (method: string, path: string, body?: string, headers: Record<string, string> = {}) =>
  fetch(server.url + path, {
    method,
    headers: { authorization: `Bearer ${owner.apiKey}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body,
  });

describe('the battery, at every /v1 route', () => {
  const table = [...routes.map((r) => ({ method: r.method, path: r.path })), { method: 'POST', path: '/v1/webhooks/stripe' }];

  it.each(table)('$method $path: hostile bodies', async ({ method, path }) => {
    if (method === 'GET') return;
    for (const [name, body] of Object.entries(hostileBodies)) {
      await expectCodedError(await send(method, fill(path, (p) => ids[p] ?? 'x'), body), `${method} ${path} with ${name}`);
    }
  });

  it.each(table.filter((r) => r.path.includes(':')))('$method $path: hostile path parameters', async ({ method, path }) => {
    for (const value of hostileParams) {
      const body = method === 'GET' || method === 'DELETE' ? undefined : '{}';
      await expectCodedError(await send(method, fill(path, () => value), body), `${method} ${path} with ${value}`);
    }
  });

  it.each(table.filter((r) => r.method === 'GET'))('$method $path: hostile query strings', async ({ method, path }) => {
    for (const query of hostileQueries) {
      const res = await send(method, `${fill(path, (p) => ids[p] ?? 'x')}?${query}`);
      if (res.status < 400) {
        // Parameters a route does not read are ignored, but it must still answer cleanly.
        expect(res.status, `${path}?${query.slice(0, 40)}`).toBe(200);
        await res.text();
        continue;
      }
      await expectCodedError(res, `${method} ${path}?${query.slice(0, 40)}`);
    }
  });
});

describe('the battery, at /graphql', () => {
  const post = (payload: string) => send('POST', '/graphql', payload);
  const cases: Record<string, string> = {
    'variables nested 10 000 deep': JSON.stringify({ query: 'mutation($r: JSON!) { completeTask(id: "x", result: $r) { id } }' }).replace(/}$/, `,"variables":{"r":${deep('{"a":', '}', '1')}}}`),
    'a NUL in a variable': JSON.stringify({ query: 'mutation($i: AgentCreateInput!) { createAgent(input: $i) { id } }', variables: { i: { name: NUL, endpoint: 'http://127.0.0.1:9/' } } }),
    'a NUL in a literal': JSON.stringify({ query: `mutation { createAgent(input: { name: "a\\u0000", endpoint: "http://127.0.0.1:9/" }) { id } }` }),
    'a NUL in a query argument': JSON.stringify({ query: `{ agent(slugOrId: "\\u0000") { id } }` }),
    'a lone surrogate in a variable': '{"query":"query($q: String) { discover(q: $q) { total } }","variables":{"q":"\\ud800"}}',
    'a list literal nested 10 000 deep': JSON.stringify({ query: `mutation { completeTask(id: "x", result: ${deep('[', ']', '')}) { id } }` }),
    'a JSON literal nested past the limit': JSON.stringify({ query: `mutation { completeTask(id: "x", result: ${deep('[', ']', '1', MAX_INPUT_DEPTH + 1)}) { id } }` }),
    'not JSON': '{"query":',
    'a syntax error': JSON.stringify({ query: '{ discover(' }),
    'an unknown field': JSON.stringify({ query: '{ nothingHere }' }),
  };

  it.each(Object.entries(cases))('%s', async (_name, payload) => {
    const res = await post(payload);
    const text = await res.text();
    expect(res.status, text.slice(0, 300)).not.toBe(500);
    const body = JSON.parse(text) as { errors?: Array<{ message: string; extensions?: { code?: unknown } }> };
    expect(body.errors?.length, text.slice(0, 300)).toBeGreaterThan(0);
    expect(typeof body.errors![0]!.extensions?.code, text.slice(0, 300)).toBe('string');
    expect(body.errors![0]!.extensions?.code).not.toBe('INTERNAL');
  });
});

describe('each refusal names its cause', () => {
  it('a malformed percent-encoding in a path id is a 400 naming the parameter', async () => {
    const error = await expectCodedError(await fetch(`${server.url}/v1/discover/%zz`), 'discover %zz');
    expect(error).toMatchObject({ code: 'INVALID_INPUT', field: 'slugOrId' });
  });

  it('a NUL in a path id is a 400 naming the parameter', async () => {
    const error = await expectCodedError(await fetch(`${server.url}/v1/discover/a%00b`), 'discover NUL');
    expect(error).toMatchObject({ code: 'INVALID_INPUT', field: 'slugOrId' });
  });

  it('a NUL in a stored string is a 400 naming the field, over REST', async () => {
    const agent = await expectCodedError(await send('POST', '/v1/agents', JSON.stringify({ name: `Bad${NUL}`, endpoint: 'http://127.0.0.1:9/' })), 'agent');
    expect(agent).toMatchObject({ code: 'INVALID_INPUT', field: 'name' });
    const task = await expectCodedError(
      await send('POST', '/v1/tasks', JSON.stringify({ title: 'ok', description: 'ok', agentId: ids.agentId, input: { nested: [{ text: `a${NUL}` }] } })),
      'task',
    );
    expect(task).toMatchObject({ code: 'INVALID_INPUT', field: 'input.nested[0].text' });
    const fail = await expectCodedError(await send('PATCH', `/v1/tasks/${ids.id}/fail`, JSON.stringify({ error: `oops${NUL}` })), 'fail');
    expect(fail).toMatchObject({ code: 'INVALID_INPUT', field: 'error' });
  });

  it('a NUL in a stored string is an INVALID_INPUT naming the field, over GraphQL (variables and literals)', async () => {
    const viaVariable = await server.api.graphql('mutation($i: AgentCreateInput!) { createAgent(input: $i) { id } }', { i: { name: `x${NUL}`, endpoint: 'http://127.0.0.1:9/' } }, owner.apiKey);
    expect(viaVariable.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_INPUT', field: 'i.name' });
    const viaLiteral = await server.api.graphql('mutation { createAgent(input: { name: "x\\u0000", endpoint: "http://127.0.0.1:9/" }) { id } }', {}, owner.apiKey);
    expect(viaLiteral.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_INPUT', field: 'input.name' });
  });

  it('JSON nested 10 000 deep is a 400 naming the field', async () => {
    const error = await expectCodedError(await send('PATCH', `/v1/tasks/${ids.id}/complete`, `{"result":${deep('{"a":', '}', '1')}}`), 'deep');
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.field).toMatch(/^result(\.a)+$/);
    expect(error.message).toMatch(`nested more than ${MAX_INPUT_DEPTH} levels`);
  });

  it('a 20 KB query string is a coded 414', async () => {
    const error = await expectCodedError(await fetch(`${server.url}/v1/discover?q=${'a'.repeat(20_000)}`), '20 KB query');
    expect(error.code).toBe('URI_TOO_LONG');
  });

  it('a 40 KB query string or header block is a coded 431, not a bare status line', async () => {
    for (const request of [
      `GET /v1/discover?q=${'a'.repeat(40_000)} HTTP/1.1\r\nhost: x\r\n\r\n`,
      `GET /v1/discover HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(40_000)}\r\n\r\n`,
    ]) {
      const answer = await rawHttp(request);
      expect(answer.status).toBe(431);
      expect(answer.headers).toMatch(/content-type: application\/json/i);
      expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'HEADERS_TOO_LARGE' } });
    }
  });

  it('malformed HTTP is a coded 400', async () => {
    const answer = await rawHttp('GET /v1/discover HTTP/1.1\r\nhost: x\r\nbad header\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'INVALID_INPUT', field: 'request' } });
  });
});

// Sends bytes as they are (fetch would refuse to send some of these) and reads the whole answer.
function rawHttp(request: string): Promise<{ status: number; headers: string; body: string }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname, () => socket.end(request));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    // The server may close before it has read everything sent; what it answered is still there.
    socket.on('error', () => {});
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), headers: head, body });
    });
  });
}
