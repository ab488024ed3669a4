// What an attacker found on the A2A server (issue 33), driven by the official @a2a-js/sdk client where
// the protocol is the point: push configurations belong to whoever made them, cards carry an ETag, a
// request without A2A-Version is A2A 0.3, a message of data alone makes a task, and a blocking send holds
// one of the caller's subscription slots while it waits.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Role, TaskState, type Message, type Part, type Task, type TaskPushNotificationConfig } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory, type Client } from '@a2a-js/sdk/client';
import { describe, expect, testWith } from './support/fixtures.js';
import { until } from './support/wait.js';

const test = testWith({
  serverEnv: { A2A_BLOCKING_WAIT_MS: '20000', SUBSCRIPTIONS_PER_USER: '2' },
  agentProfile: { name: 'Wren Summarizer', description: 'Summarizes', capabilities: ['summarization'], protocols: ['http'] },
});

async function clientFor(url: string, apiKey: string): Promise<Client> {
  const fetchImpl: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${apiKey}`);
    return fetch(input, { ...init, headers });
  };
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    }),
  );
  return url.includes('/a2a/agents/') ? factory.createFromUrl(`${url}/.well-known/agent-card.json`, '') : factory.createFromUrl(url);
}

const text = (value: string): Part => ({ content: { $case: 'text', value }, metadata: undefined, filename: '', mediaType: '' });
const data = (value: unknown): Part => ({ content: { $case: 'data', value }, metadata: undefined, filename: '', mediaType: '' });
const message = (parts: Part[]): Message => ({ messageId: randomUUID(), contextId: '', taskId: '', role: Role.ROLE_USER, parts, metadata: undefined, extensions: [], referenceTaskIds: [] });
const send = (m: Message, returnImmediately: boolean, push?: TaskPushNotificationConfig) => ({
  tenant: '',
  message: m,
  configuration: { acceptedOutputModes: [], taskPushNotificationConfig: push, returnImmediately },
  metadata: undefined,
});

async function rpc(url: string, body: unknown, apiKey: string, version: string | null) {
  const headers: Record<string, string> = { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` };
  if (version !== null) headers['a2a-version'] = version;
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
}

// A receiver of push notifications: what arrived at each path, with its headers.
async function startHook() {
  const received: Array<{ path: string; headers: http.IncomingHttpHeaders; body: any }> = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(raw) });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('push configurations belong to whoever made them', () => {
  test('the agent’s owner cannot replace, read, list or delete the requester’s configuration, even under the same id', async ({ server, requester, owner, agent }) => {
    agent.http.onDelivery(null);
    const hook = await startHook();
    try {
      const mine = await clientFor(`${server.url}/a2a/agents/wren-summarizer`, requester.apiKey);
      const config: TaskPushNotificationConfig = { tenant: '', id: 'bobcfg', taskId: '', url: `${hook.url}/requester`, token: '', authentication: { scheme: 'Bearer', credentials: 'requester-secret' } };
      const task = (await mine.sendMessage(send(message([text('Push to me')]), true, config))) as Task;

      // The owner may see the task, and sets a configuration of his own under the same id.
      const theirs = await clientFor(server.url, owner.apiKey);
      const ownerConfig = { tenant: '', id: 'bobcfg', taskId: task.id, url: `${hook.url}/owner`, token: 'owner-token', authentication: undefined };
      expect(await theirs.createTaskPushNotificationConfig(ownerConfig)).toMatchObject({ id: 'bobcfg', url: `${hook.url}/owner` });

      // Each sees their own.
      expect((await mine.getTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'bobcfg' })).url).toBe(`${hook.url}/requester`);
      expect((await theirs.getTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'bobcfg' })).url).toBe(`${hook.url}/owner`);
      const list = (client: Client) => client.listTaskPushNotificationConfig({ tenant: '', taskId: task.id, pageSize: 10, pageToken: '' }).then((r) => r.configs.map((c) => c.url));
      expect(await list(mine)).toEqual([`${hook.url}/requester`]);
      expect(await list(theirs)).toEqual([`${hook.url}/owner`]);

      // The pushes go to each with their own credential.
      await mine.cancelTask({ tenant: '', id: task.id, metadata: undefined });
      await until('the cancelled task pushed to both', () => {
        const at = (path: string) => hook.received.filter((r) => r.path === path && r.body.task?.status?.state === 'TASK_STATE_CANCELED');
        return at('/requester').length > 0 && at('/owner').length > 0;
      });
      for (const push of hook.received) {
        if (push.path === '/requester') expect(push.headers).toMatchObject({ authorization: 'Bearer requester-secret' });
        else expect(push.headers).toMatchObject({ 'x-a2a-notification-token': 'owner-token' });
      }

      // The owner deletes his; the requester's stays. The owner has nothing more to delete.
      await theirs.deleteTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'bobcfg' });
      expect(await list(mine)).toEqual([`${hook.url}/requester`]);
      await expect(theirs.deleteTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'bobcfg' })).rejects.toMatchObject({ name: 'TaskNotFoundError' });
      await expect(theirs.getTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'bobcfg' })).rejects.toMatchObject({ name: 'TaskNotFoundError' });
    } finally {
      await hook.close();
    }
  });
});

describe('cards carry an ETag', () => {
  test('the marketplace’s and an agent’s card answer 304 to If-None-Match with their ETag', async ({ server, agent }) => {
    void agent;
    for (const path of ['/.well-known/agent-card.json', '/a2a/agents/wren-summarizer/.well-known/agent-card.json']) {
      const first = await fetch(`${server.url}${path}`);
      expect(first.status).toBe(200);
      const etag = first.headers.get('etag');
      expect(etag, path).toMatch(/^"[\w-]+"$/);
      await first.arrayBuffer();
      for (const ifNoneMatch of [etag!, `W/${etag}`, `"other", ${etag}`, '*']) {
        const again = await fetch(`${server.url}${path}`, { headers: { 'if-none-match': ifNoneMatch } });
        expect(again.status, ifNoneMatch).toBe(304);
        expect(again.headers.get('etag')).toBe(etag);
        expect(await again.text()).toBe('');
      }
      const changed = await fetch(`${server.url}${path}`, { headers: { 'if-none-match': '"not-this-one"' } });
      expect(changed.status).toBe(200);
      expect(((await changed.json()) as { name: string }).name).toBeTruthy();
    }
  });
});

describe('A2A-Version', () => {
  test('a request without it (or empty) is A2A 0.3: its methods are served, 1.0 names are pointed at the header', async ({ server, requester, task }) => {
    const url = `${server.url}/a2a`;
    for (const version of [null, '']) {
      const old = await rpc(url, { jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: task.id } }, requester.apiKey, version);
      expect(old.body.result).toMatchObject({ kind: 'task', id: task.id });
      const v1 = await rpc(url, { jsonrpc: '2.0', id: 2, method: 'GetTask', params: { id: task.id } }, requester.apiKey, version);
      expect(v1.body).toMatchObject({ id: 2, error: { code: -32601, message: expect.stringContaining('A2A-Version: 1.0') } });
      expect(v1.body.result).toBeUndefined();
    }
    const v1 = await rpc(url, { jsonrpc: '2.0', id: 3, method: 'GetTask', params: { id: task.id } }, requester.apiKey, '1.0');
    expect(v1.body.result).toMatchObject({ id: task.id, status: { state: expect.stringMatching(/^TASK_STATE_/) } });
    const unknown = await rpc(url, { jsonrpc: '2.0', id: 4, method: 'GetTask', params: { id: task.id } }, requester.apiKey, '2.0');
    expect(unknown.body.error.code).toBe(-32009);
  });
});

describe('a message of data alone', () => {
  test('makes a task: its title and description come from the agent’s skill and the data', async ({ server, requester, agent }) => {
    agent.http.onDelivery(null);
    const client = await clientFor(`${server.url}/a2a/agents/wren-summarizer`, requester.apiKey);
    const task = (await client.sendMessage(send(message([data({ document: 'A long report about herons' })]), true))) as Task;
    const rest = (await server.api.get(`/v1/tasks/${task.id}`, { key: requester.apiKey })).body.data;
    expect(rest.title).toBe('summarization: {"document":"A long report about herons"}');
    expect(rest.description).toContain('A long report about herons');
    expect(rest.input).toEqual({ document: 'A long report about herons' });
    await client.cancelTask({ tenant: '', id: task.id, metadata: undefined });
  });
});

describe('a blocking SendMessage holds a subscription slot', () => {
  test('two waiting sends fill a cap of two: a third, or a stream, is refused with 429 until one ends', async ({ server, requester, agent }) => {
    agent.http.onDelivery(null);
    const client = await clientFor(`${server.url}/a2a/agents/wren-summarizer`, requester.apiKey);
    const titles = [`Hold ${randomUUID()}`, `Hold ${randomUUID()}`];
    const waiting = titles.map((title) => client.sendMessage(send(message([text(title)]), false)) as Promise<Task>);
    const held = await until('both blocking sends made their tasks', async () => {
      const tasks = (await server.api.get('/v1/tasks?role=requester&limit=100', { key: requester.apiKey })).body.data as Array<{ id: string; title: string }>;
      const ours = tasks.filter((t) => titles.includes(t.title));
      return ours.length === 2 ? ours : null;
    });

    const url = `${server.url}/a2a/agents/wren-summarizer`;
    const blocking = (id: string) => ({ jsonrpc: '2.0', id, method: 'SendMessage', params: { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'A third' }] } } });
    const third = await rpc(url, blocking('third'), requester.apiKey, '1.0');
    expect(third.status).toBe(429);
    expect(third.body.error.code).toBe('RATE_LIMITED');
    const stream = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0', authorization: `Bearer ${requester.apiKey}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'sub', method: 'SubscribeToTask', params: { id: held[0]!.id } }),
    });
    expect(stream.status).toBe(429);
    await stream.arrayBuffer();
    // A send that does not wait takes no slot.
    const quick = await rpc(url, { ...blocking('quick'), params: { ...blocking('quick').params, configuration: { returnImmediately: true } } }, requester.apiKey, '1.0');
    expect(quick.body.result.task.id).toBeTruthy();
    await server.api.post(`/v1/tasks/${quick.body.result.task.id}/cancel`, { key: requester.apiKey });

    // Cancelling ends the waits: each answers its task, and the slots are free again.
    for (const t of held) await server.api.post(`/v1/tasks/${t.id}/cancel`, { key: requester.apiKey });
    const answered = await Promise.all(waiting);
    expect(answered.map((t) => t.status?.state)).toEqual([TaskState.TASK_STATE_CANCELED, TaskState.TASK_STATE_CANCELED]);
    const afterwards = (await client.sendMessage(send(message([text('Later')]), true))) as Task;
    const open = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0', authorization: `Bearer ${requester.apiKey}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'sub', method: 'SubscribeToTask', params: { id: afterwards.id } }),
    });
    expect(open.headers.get('content-type')).toBe('text/event-stream');
    await server.api.post(`/v1/tasks/${afterwards.id}/cancel`, { key: requester.apiKey });
    await open.text();
  });
});
