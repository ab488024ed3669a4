// Scopes hold on every path to data of their kind, not only on root fields: a tasks:read key cannot read
// delivery attempts through `task { deliveries }`, an agents:read key cannot read task input through
// `agentDeliveries { task }`. Scope refusals name their scope on the account endpoints and over A2A
// (both 1.0 and 0.3), never an internal error.
import { afterAll, describe, expect, it } from 'vitest';
import { test } from './support/fixtures.js';
import type { TestServer } from './support/server.js';
import { agentKeepingTasksMatched } from './support/subscriptions.js';
import { until } from './support/wait.js';
import type { TestAgent } from './support/agent.js';

let server: TestServer;
let owner: { id: string; apiKey: string };
let agentHttp: TestAgent;
let agentId: string;
let taskId: string;
const keys: Record<string, string> = {};

async function keyWith(scopes: string[]) {
  return (await server.api.post('/v1/api-keys', { key: owner.apiKey, body: { name: scopes.join(' '), scopes } })).body.data.apiKey as string;
}
const gql = async (key: string, query: string, variables: Record<string, unknown> = {}) => (await server.api.post('/graphql', { key, body: { query, variables } })).body;

test.beforeAll(async ({ server: s, owner: o }) => {
  [server, owner] = [s, o];
  ({ agentHttp, agentId } = await agentKeepingTasksMatched(server, owner.apiKey));
  const task = await server.api.post('/v1/tasks', { key: owner.apiKey, body: { title: 'Reach', description: 'd', agentId, input: { secret: 'task input' }, expiresInMinutes: 30 } });
  expect(task.status).toBe(201);
  taskId = task.body.data.id;
  // The agent answered 500: the delivery has a failed attempt on record.
  await until('a failed delivery attempt', async () => ((await gql(owner.apiKey, 'query($id: ID!) { agentDeliveries(agentId: $id) { attempts { number } } }', { id: agentId })).data?.agentDeliveries?.[0]?.attempts?.length ?? 0) > 0);
  for (const scope of ['tasks:read', 'tasks:write', 'agents:read']) keys[scope] = await keyWith([scope]);
});
afterAll(async () => {
  await agentHttp?.close();
});

describe('scopes on nested fields', () => {
  const TASK_DELIVERIES = 'query($id: ID!) { task(id: $id) { id deliveries { attempts { number statusCode } } } }';
  const DELIVERY_TASK = 'query($id: ID!) { agentDeliveries(agentId: $id) { id task { id input } } }';

  it('a tasks:read key cannot reach delivery attempts through a task (as REST refuses them)', async () => {
    const refused = await gql(keys['tasks:read']!, TASK_DELIVERIES, { id: taskId });
    expect(refused.errors?.[0]?.extensions).toEqual({ code: 'INSUFFICIENT_SCOPE', scope: 'agents:read' });
    expect(JSON.stringify(refused.data ?? null)).not.toContain('statusCode');
    const rest = await server.api.get(`/v1/agents/${agentId}/deliveries`, { key: keys['tasks:read']! });
    expect(rest.body.error).toMatchObject({ code: 'INSUFFICIENT_SCOPE', scope: 'agents:read' });
    const full = await gql(owner.apiKey, TASK_DELIVERIES, { id: taskId });
    expect(full.errors).toBeUndefined();
    expect(full.data.task.deliveries[0].attempts.length).toBeGreaterThan(0);
  });

  it('an agents:read key cannot reach task input through a delivery', async () => {
    const refused = await gql(keys['agents:read']!, DELIVERY_TASK, { id: agentId });
    expect(refused.errors?.[0]?.extensions).toEqual({ code: 'INSUFFICIENT_SCOPE', scope: 'tasks:read' });
    expect(JSON.stringify(refused)).not.toContain('task input');
    const full = await gql(owner.apiKey, DELIVERY_TASK, { id: agentId });
    expect(full.data.agentDeliveries[0].task.input).toEqual({ secret: 'task input' });
  });

  it('a write answers with what it wrote: a tasks:write key creates a task and sees it', async () => {
    const created = await server.api.post('/v1/tasks', { key: keys['tasks:write']!, body: { title: 'Written', description: 'd', agentId, expiresInMinutes: 30 } });
    expect(created.status).toBe(201);
    expect(created.body.data.id).toEqual(expect.any(String));
    // Reading tasks still needs tasks:read.
    expect((await server.api.get(`/v1/tasks/${created.body.data.id}`, { key: keys['tasks:write']! })).body.error).toMatchObject({ code: 'INSUFFICIENT_SCOPE', scope: 'tasks:read' });
  });

  it('the account notification URL needs the account scope', async () => {
    const refused = await gql(keys['tasks:read']!, 'query { me { id notificationUrl } }');
    expect(refused.errors?.[0]?.extensions).toEqual({ code: 'INSUFFICIENT_SCOPE', scope: 'account' });
    expect((await gql(owner.apiKey, 'query { me { id notificationUrl } }')).errors).toBeUndefined();
  });
});

describe('scope refusals name their scope', () => {
  it('on /v1/account/sessions and /v1/account/passkeys: 403 INSUFFICIENT_SCOPE account', async () => {
    const key = keys['tasks:read']!;
    const calls = [
      server.api.get('/v1/account/sessions', { key }),
      server.api.delete('/v1/account/sessions', { key }),
      server.api.delete('/v1/account/sessions/ses_x', { key }),
      server.api.get('/v1/account/passkeys', { key }),
      server.api.post('/v1/account/passkeys/options', { key, body: {} }),
      server.api.post('/v1/account/passkeys', { key, body: { credential: {} } }),
      server.api.delete('/v1/account/passkeys/pk_x', { key }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(403);
      expect(res.body.error).toEqual({ code: 'INSUFFICIENT_SCOPE', message: 'this credential lacks the "account" scope', scope: 'account' });
    }
    expect((await server.api.get('/v1/account/sessions', { key: owner.apiKey })).status).toBe(200);
  });

  const a2a = async (key: string, body: Record<string, unknown>, version: string | null) => {
    const res = await fetch(`${server.url}/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, ...(version ? { 'a2a-version': version } : {}) },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, ...body }),
    });
    return { status: res.status, body: (await res.json()) as { id: unknown; error?: { code: number; message: string; data?: unknown } } };
  };

  it('over A2A 1.0: an application error naming the scope in data, not -32603', async () => {
    const listed = await a2a(keys['agents:read']!, { method: 'ListTasks', params: {} }, '1.0');
    expect(listed.body.id).toBe(7);
    expect(listed.body.error).toEqual({
      code: 403,
      message: 'this credential lacks the "tasks:read" scope',
      data: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'INSUFFICIENT_SCOPE', domain: new URL(server.app.services.deps.urls.base).host, metadata: { code: 'INSUFFICIENT_SCOPE', scope: 'tasks:read' } }],
    });
    const sent = await a2a(keys['tasks:read']!, { method: 'SendMessage', params: { message: { messageId: 'scope-1', role: 'ROLE_USER', parts: [{ text: 'hello' }] }, configuration: { returnImmediately: true } } }, '1.0');
    expect(sent.body.error).toMatchObject({ code: 403, data: [{ reason: 'INSUFFICIENT_SCOPE', metadata: { scope: 'tasks:write' } }] });
    const streamed = await a2a(keys['tasks:read']!, { method: 'SendStreamingMessage', params: { message: { messageId: 'scope-2', role: 'ROLE_USER', parts: [{ text: 'hello' }] } } }, '1.0');
    expect(streamed.body.error).toMatchObject({ code: 403, data: [{ reason: 'INSUFFICIENT_SCOPE', metadata: { scope: 'tasks:write' } }] });
  });

  it('over A2A 0.3: the same error with the scope in data', async () => {
    const got = await a2a(keys['agents:read']!, { method: 'tasks/get', params: { id: taskId } }, null);
    expect(got.body.error).toEqual({ code: 403, message: 'this credential lacks the "tasks:read" scope', data: { code: 'INSUFFICIENT_SCOPE', scope: 'tasks:read' } });
    const sent = await a2a(keys['tasks:read']!, { method: 'message/send', params: { message: { kind: 'message', messageId: 'scope-3', role: 'user', parts: [{ kind: 'text', text: 'hello' }] } } }, null);
    expect(sent.body.error).toEqual({ code: 403, message: 'this credential lacks the "tasks:write" scope', data: { code: 'INSUFFICIENT_SCOPE', scope: 'tasks:write' } });
  });
});
