// The marketplace as an A2A server, driven by the official @a2a-js/sdk client: its card and the agents'
// cards, tasks sent (blocking, returning immediately, streaming) at /a2a and at an agent's URL, a
// repeated messageId, GetTask, ListTasks, SubscribeToTask, CancelTask, and JSON-RPC errors.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Role, TaskState, type Message, type Part, type StreamResponse, type Task, type TaskPushNotificationConfig } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory, type Client } from '@a2a-js/sdk/client';
import { callBack } from './support/agent.js';
import { describe, expect, testWith } from './support/fixtures.js';
import { until } from './support/wait.js';

const EXTENSION = 'urn:task-marketplace:a2a:marketplace:v1';

const test = testWith({
  serverEnv: { A2A_BLOCKING_WAIT_MS: '15000', SUBSCRIPTIONS_PER_USER: '2' },
  agentProfile: {
    name: 'Heron Summarizer',
    description: 'Summarizes documents',
    capabilities: ['summarization'],
    tags: ['text'],
    protocols: ['http'],
    inputSchema: JSON.stringify({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }),
  },
});

function authedFetch(apiKey: string | null): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    if (apiKey) headers.set('authorization', `Bearer ${apiKey}`);
    return fetch(input, { ...init, headers });
  };
}

async function clientFor(url: string, apiKey: string | null): Promise<Client> {
  const fetchImpl = authedFetch(apiKey);
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    }),
  );
  // An agent's card is below its own path; the resolver takes a full card URL with an empty path.
  return url.includes('/a2a/agents/') ? factory.createFromUrl(`${url}/.well-known/agent-card.json`, '') : factory.createFromUrl(url);
}

const text = (value: string): Part => ({ content: { $case: 'text', value }, metadata: undefined, filename: '', mediaType: '' });
const data = (value: unknown): Part => ({ content: { $case: 'data', value }, metadata: undefined, filename: '', mediaType: '' });

function message(parts: Part[], extra: Partial<Message> = {}): Message {
  return { messageId: randomUUID(), contextId: '', taskId: '', role: Role.ROLE_USER, parts, metadata: undefined, extensions: [], referenceTaskIds: [], ...extra };
}

const send = (m: Message, opts: { returnImmediately?: boolean; metadata?: Record<string, unknown> } = {}) => ({
  tenant: '',
  message: m,
  configuration: { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: opts.returnImmediately ?? false },
  metadata: opts.metadata,
});

const asTask = (result: unknown) => {
  expect(result).toHaveProperty('status');
  return result as Task;
};

async function rpc(url: string, body: unknown, apiKey?: string) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

describe('agent cards', () => {
  test('the marketplace card resolves through the SDK, with its JSON-RPC interface and Bearer scheme', async ({ server, requester }) => {
    const client = await clientFor(server.url, requester.apiKey);
    const card = await client.getAgentCard();
    expect(card.name).toBe('Task marketplace');
    expect(card.supportedInterfaces[0]).toMatchObject({ url: `${server.url.replace('127.0.0.1', 'localhost')}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' });
    expect(card.capabilities?.streaming).toBe(true);
    expect(card.skills.map((s) => s.id)).toEqual(['route-task', 'delegate-to-agent', 'follow-task']);
    expect(card.securitySchemes.bearer?.scheme).toMatchObject({ $case: 'httpAuthSecurityScheme', value: { scheme: 'Bearer' } });
    const raw = await fetch(`${server.url}/.well-known/agent-card.json`);
    expect(raw.status).toBe(200);
    expect(((await raw.json()) as any).securityRequirements).toEqual([{ schemes: { bearer: { list: [] } } }]);
  });

  test('each public active agent has a card: capabilities as skills, price, trust and input schema in the extension', async ({ server, requester, agent }) => {
    const client = await clientFor(`${server.url}/a2a/agents/heron-summarizer`, requester.apiKey);
    const card = await client.getAgentCard();
    expect(card.name).toBe('Heron Summarizer');
    expect(card.supportedInterfaces[0]!.url).toMatch(/\/a2a\/agents\/heron-summarizer$/);
    expect(card.skills.map((s) => s.id)).toEqual(['summarization']);
    const extension = card.capabilities!.extensions.find((e) => e.uri === EXTENSION)!;
    expect(extension.params).toMatchObject({
      agentId: agent.id,
      priceCents: 0,
      trustTier: 'unrated',
      inputSchema: { type: 'object', required: ['text'] },
    });
    const missing = await fetch(`${server.url}/a2a/agents/no-such-agent/.well-known/agent-card.json`);
    expect(missing.status).toBe(404);
  });
});

describe('tasks over A2A', () => {
  test('SendMessage at an agent’s URL blocks until the agent completes, with the result as an artifact', async ({ server, requester, agent }) => {
    agent.http.onDelivery((d) => void callBack(d, { result: { summary: 'short' } }));
    const client = await clientFor(`${server.url}/a2a/agents/heron-summarizer`, requester.apiKey);
    const task = asTask(await client.sendMessage(send(message([text('Summarize this\nThe long text follows'), data({ text: 'a long text' })]))));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.artifacts[0]!.parts[0]!.content).toEqual({ $case: 'data', value: { summary: 'short' } });
    // The service's receipt travels with the result, genuine by the service's own check.
    const receipt = (task.artifacts[0]!.metadata as { receipt?: string } | undefined)?.receipt;
    expect(receipt).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect((await server.api.post('/v1/receipts/verify', { body: { receipt } })).body.data).toMatchObject({ valid: true });
    // It is a marketplace task like any other.
    const rest = await server.api.get(`/v1/tasks/${task.id}`, { key: requester.apiKey });
    expect(rest.body.data).toMatchObject({ status: 'completed', agentId: agent.id, title: 'Summarize this', input: { text: 'a long text' } });
    expect(rest.body.data.description).toContain('The long text follows');
  });

  test('a repeated messageId returns the same task; the input is checked against the agent’s schema', async ({ server, requester, agent }) => {
    agent.http.onDelivery(null);
    const client = await clientFor(`${server.url}/a2a/agents/heron-summarizer`, requester.apiKey);
    const m = message([text('Once'), data({ text: 'x' })]);
    const first = asTask(await client.sendMessage(send(m, { returnImmediately: true })));
    const again = asTask(await client.sendMessage(send(m, { returnImmediately: true })));
    expect(again.id).toBe(first.id);
    await expect(client.sendMessage(send(message([text('Bad input'), data({ text: 42 })]), { returnImmediately: true }))).rejects.toMatchObject({
      name: 'RequestMalformedError',
      message: expect.stringContaining('input'),
    });
    await client.cancelTask({ tenant: '', id: first.id, metadata: undefined });
  });

  test('at /a2a the metadata routes the task; ListTasks lists it', async ({ server, requester, agent }) => {
    agent.http.onDelivery(null);
    const client = await clientFor(server.url, requester.apiKey);
    const task = asTask(await client.sendMessage(send(message([text('Route me'), data({ text: 'y' })]), { returnImmediately: true, metadata: { capabilities: ['summarization'] } })));
    expect(task.metadata?.[EXTENSION]).toMatchObject({ agentId: agent.id });
    const listed = await client.listTasks({ tenant: '', contextId: '', status: TaskState.TASK_STATE_UNSPECIFIED, pageToken: '', statusTimestampAfter: undefined, pageSize: 10 });
    expect(listed.tasks.map((t) => t.id)).toContain(task.id);
    const fetched = await client.getTask({ tenant: '', id: task.id });
    expect(fetched.id).toBe(task.id);
    await client.cancelTask({ tenant: '', id: task.id, metadata: undefined });
  });

  test('SendStreamingMessage streams the task, then its updates until it completes', async ({ server, requester, agent }) => {
    agent.http.onDelivery((d) => void callBack(d, { result: { summary: 'streamed' } }));
    const client = await clientFor(`${server.url}/a2a/agents/heron-summarizer`, requester.apiKey);
    const events: StreamResponse['payload'][] = [];
    for await (const event of client.sendMessageStream(send(message([text('Stream it'), data({ text: 'z' })])))) events.push(event.payload);
    expect(events[0]?.$case).toBe('task');
    const last = events.at(-1)!;
    expect(last.$case).toBe('statusUpdate');
    expect(last.$case === 'statusUpdate' && last.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const artifact = events.find((e) => e?.$case === 'artifactUpdate');
    expect(artifact?.$case === 'artifactUpdate' && artifact.value.artifact?.parts[0]?.content).toEqual({ $case: 'data', value: { summary: 'streamed' } });
  });

  test('SubscribeToTask follows a task until it is cancelled; CancelTask twice is not cancelable', async ({ server, requester, agent }) => {
    agent.http.onDelivery(null);
    const client = await clientFor(`${server.url}/a2a/agents/heron-summarizer`, requester.apiKey);
    const task = asTask(await client.sendMessage(send(message([text('Wait'), data({ text: 'w' })]), { returnImmediately: true })));
    const seen: StreamResponse['payload'][] = [];
    const following = (async () => {
      for await (const event of client.resubscribeTask({ tenant: '', id: task.id })) seen.push(event.payload);
    })();
    // The task comes first, once the subscription listens for what follows.
    await until('the subscription under way', () => seen.length > 0);
    const cancelled = await client.cancelTask({ tenant: '', id: task.id, metadata: undefined });
    expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    await following;
    expect(seen[0]?.$case).toBe('task');
    const last = seen.at(-1)!;
    expect(last.$case === 'statusUpdate' && last.value.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    await expect(client.cancelTask({ tenant: '', id: task.id, metadata: undefined })).rejects.toMatchObject({ name: 'TaskNotCancelableError' });
  });

  test('INPUT_REQUIRED: the agent asks, the A2A client answers with a message carrying the taskId', async ({ server, requester, agent }) => {
    agent.http.onDelivery((d) => {
      const body = d.body as unknown as { type?: string; input?: { language?: string } };
      if (body.type === 'task.input') return void callBack(d, { result: { summary: `in ${body.input?.language}` } });
      void callBack(d, { inputRequired: { message: 'Which language?' } } as never);
    });
    const client = await clientFor(`${server.url}/a2a/agents/heron-summarizer`, requester.apiKey);
    const asked = asTask(await client.sendMessage(send(message([text('Summarize'), data({ text: 'long' })]))));
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(asked.status?.message?.parts[0]?.content).toEqual({ $case: 'text', value: 'Which language?' });
    const done = asTask(await client.sendMessage(send(message([data({ language: 'Dutch' })], { taskId: asked.id, contextId: asked.contextId }))));
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(done.artifacts[0]!.parts[0]!.content).toEqual({ $case: 'data', value: { summary: 'in Dutch' } });
    // A message to a finished task is refused.
    await expect(client.sendMessage(send(message([text('more')], { taskId: asked.id })))).rejects.toMatchObject({ name: 'UnsupportedOperationError' });
  });

  test('another user’s or an unknown task is TaskNotFound', async ({ server, requester, task }) => {
    const stranger = await server.createUser();
    const client = await clientFor(server.url, stranger.apiKey);
    await expect(client.getTask({ tenant: '', id: task.id })).rejects.toMatchObject({ name: 'TaskNotFoundError' });
    await expect(client.getTask({ tenant: '', id: 'tsk_unknown' })).rejects.toMatchObject({ name: 'TaskNotFoundError' });
    void requester;
  });
});

describe('streams and credentials', () => {
  test('A2A streams count against the open subscriptions, and end when their key is revoked', async ({ server, requester, agent }) => {
    agent.http.onDelivery(null);
    const watcher = await server.app.services.accounts.createApiKey(requester.id, 'a2a watcher');
    const client = await clientFor(`${server.url}/a2a/agents/heron-summarizer`, requester.apiKey);
    const task = asTask(await client.sendMessage(send(message([text('Watch'), data({ text: 'w' })]), { returnImmediately: true })));
    const subscribe = () =>
      fetch(`${server.url}/a2a`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0', authorization: `Bearer ${watcher.apiKey}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SubscribeToTask', params: { id: task.id } }),
      });
    const streams = [await subscribe(), await subscribe()];
    expect(streams.map((r) => r.headers.get('content-type'))).toEqual(['text/event-stream', 'text/event-stream']);
    const third = await subscribe();
    expect(third.status).toBe(429);
    expect(((await third.json()) as any).error.code).toBe('RATE_LIMITED');
    await server.api.post('/graphql', { key: requester.apiKey, body: { query: 'mutation ($id: ID!) { revokeApiKey(id: $id) { id } }', variables: { id: watcher.record.id } } });
    for (const stream of streams) {
      const body = await stream.text();
      expect(body).toContain('"result":{"task"');
      expect(body).toMatch(/"error":\{"code":-32603,"message":"[^"]*revoked/);
    }
    await client.cancelTask({ tenant: '', id: task.id, metadata: undefined });
  });
});

describe('push notifications to A2A clients', () => {
  test('a configuration set with the message or later receives the task after each change, with its credential', async ({ server, requester, agent }) => {
    agent.http.onDelivery(null);
    const received: Array<{ headers: http.IncomingHttpHeaders; body: any }> = [];
    const hook = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: JSON.parse(raw) });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    const hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/a2a-hook`;
    try {
      const client = await clientFor(`${server.url}/a2a/agents/heron-summarizer`, requester.apiKey);
      const withPush = send(message([text('Push me'), data({ text: 'p' })]), { returnImmediately: true });
      const first: TaskPushNotificationConfig = { tenant: '', id: 'cfg-1', taskId: '', url: hookUrl, token: '', authentication: { scheme: 'Bearer', credentials: 'client-secret' } };
      (withPush.configuration as { taskPushNotificationConfig?: TaskPushNotificationConfig }).taskPushNotificationConfig = first;
      const task = asTask(await client.sendMessage(withPush));
      // A second configuration, set later, with a token.
      const second = await client.createTaskPushNotificationConfig({ tenant: '', id: 'cfg-2', taskId: task.id, url: hookUrl, token: 'tok-2', authentication: undefined });
      expect(second).toMatchObject({ id: 'cfg-2', taskId: task.id, url: hookUrl });
      const listed = await client.listTaskPushNotificationConfig({ tenant: '', taskId: task.id, pageSize: 10, pageToken: '' });
      expect(listed.configs.map((c) => c.id).sort()).toEqual(['cfg-1', 'cfg-2']);
      expect((await client.getTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'cfg-1' })).url).toBe(hookUrl);
      await client.cancelTask({ tenant: '', id: task.id, metadata: undefined });
      await until('both pushes of the cancelled task', () =>
        received.some((r) => r.headers.authorization === 'Bearer client-secret' && r.body.task?.status?.state === 'TASK_STATE_CANCELED') &&
        received.some((r) => r.headers['x-a2a-notification-token'] === 'tok-2' && r.body.task?.status?.state === 'TASK_STATE_CANCELED'),
      );
      expect(received[0]!.headers['content-type']).toBe('application/a2a+json');
      expect(received.every((r) => r.body.task.id === task.id)).toBe(true);
      await client.deleteTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'cfg-2' });
      expect((await client.listTaskPushNotificationConfig({ tenant: '', taskId: task.id, pageSize: 10, pageToken: '' })).configs.map((c) => c.id)).toEqual(['cfg-1']);
      // Someone else's task is not found; a URL that is not http(s) is refused naming url.
      const stranger = await clientFor(server.url, (await server.createUser()).apiKey);
      await expect(stranger.createTaskPushNotificationConfig({ tenant: '', id: 'x', taskId: task.id, url: hookUrl, token: '', authentication: undefined })).rejects.toMatchObject({ name: 'TaskNotFoundError' });
      await expect(client.createTaskPushNotificationConfig({ tenant: '', id: 'x', taskId: task.id, url: 'ftp://example.com/x', token: '', authentication: undefined })).rejects.toMatchObject({
        name: 'RequestMalformedError',
        message: expect.stringContaining('url'),
      });
    } finally {
      await new Promise((resolve) => hook.close(resolve));
    }
  });
});

describe('JSON-RPC errors', () => {
  test('parse error, invalid request, unknown method, invalid params, unsupported push', async ({ server, requester }) => {
    const url = `${server.url}/a2a`;
    expect((await rpc(url, '{"jsonrpc":', requester.apiKey)).body.error.code).toBe(-32700);
    expect((await rpc(url, [{ jsonrpc: '2.0', id: 1, method: 'GetTask' }], requester.apiKey)).body.error.code).toBe(-32600);
    expect((await rpc(url, { jsonrpc: '1.0', id: 1, method: 'GetTask', params: {} }, requester.apiKey)).body.error.code).toBe(-32600);
    expect((await rpc(url, { jsonrpc: '2.0', id: 1, method: 'DropTables', params: {} }, requester.apiKey)).body).toMatchObject({ id: 1, error: { code: -32601 } });
    const noParts = await rpc(url, { jsonrpc: '2.0', id: 2, method: 'SendMessage', params: { message: { messageId: 'm-1', role: 'ROLE_USER', parts: [] } } }, requester.apiKey);
    expect(noParts.body).toMatchObject({ id: 2, error: { code: -32602, message: expect.stringContaining('message.parts') } });
    const push = await rpc(url, { jsonrpc: '2.0', id: 3, method: 'CreateTaskPushNotificationConfig', params: { taskId: 'tsk_x', url: 'https://example.com/hook' } }, requester.apiKey);
    expect(push.body.error.code).toBe(-32001);
    const version = await rpc(url, { jsonrpc: '2.0', id: 4, method: 'GetTask', params: { id: 'x' } }, requester.apiKey);
    expect(version.body.error.code).toBe(-32001);
  });

  test('a v0.3 peer (no A2A-Version, slash-spelled methods) is answered in v0.3', async ({ server, requester, agent }) => {
    agent.http.onDelivery(null);
    const res = await fetch(`${server.url}/a2a/agents/heron-summarizer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${requester.apiKey}` },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'v03',
        method: 'message/send',
        params: { message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'Old client' }, { kind: 'data', data: { text: 'v' } }] }, configuration: { blocking: false } },
      }),
    });
    const body = (await res.json()) as any;
    expect(body.result).toMatchObject({ kind: 'task', status: { state: expect.stringMatching(/submitted|working/) } });
    const got = await rpc(`${server.url}/a2a`, { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: body.result.id } }, requester.apiKey);
    expect(got.body.result.id).toBe(body.result.id);
    await server.api.post(`/v1/tasks/${body.result.id}/cancel`, { key: requester.apiKey });
  });

  test('needs a Bearer credential', async ({ server }) => {
    const res = await rpc(`${server.url}/a2a`, { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } });
    expect(res.status).toBe(401);
    // The challenge points an OAuth client at the protected resource's metadata (RFC 9728).
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata="http:\/\/[^"]+\/\.well-known\/oauth-protected-resource\/a2a"$/);
    const bad = await rpc(`${server.url}/a2a`, { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } }, 'tmk_wrong');
    expect(bad.status).toBe(401);
  });

  test('a paid agent without credits or a saved card: an error that says how to pay, and no task left behind', async ({ server, requester, owner }) => {
    const paid = await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Costly Crane', endpoint: 'http://127.0.0.1:9/x', capabilities: ['costly'], priceCents: 500 } });
    expect(paid.status).toBe(201);
    const client = await clientFor(`${server.url}/a2a/agents/costly-crane`, requester.apiKey);
    await expect(client.sendMessage(send(message([text('Pay me')]), { returnImmediately: true }))).rejects.toMatchObject({
      message: expect.stringContaining('/v1/credits'),
    });
    const mine = await server.api.get('/v1/tasks?role=requester&limit=100', { key: requester.apiKey });
    const open = mine.body.data.filter((t: any) => t.agentId === paid.body.data.id && !['cancelled', 'failed'].includes(t.status));
    expect(open).toEqual([]);
  });
});
