// Delivery to an agent built with @a2a-js/sdk's server, imported from its card: SendMessage with
// messageId = our task id, its replies, push notifications and (without push support) GetTask polling
// move our task; it completes one, fails one, asks for input on one (answered by the requester), has one
// cancelled; every call is an attempt in the delivery log.
import { afterAll, describe, expect, it } from 'vitest';
import { TaskState, type Message, type Task } from '@a2a-js/sdk';
import type { ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { testWith } from './support/fixtures.js';
import type { TestServer } from './support/server.js';
import { startSdkAgent, type SdkAgent } from './support/a2a-agent.js';
import { waitForStatus } from './support/agent.js';
import { makeJobsDue } from './support/jobs.js';
import { until } from './support/wait.js';

let server: TestServer;
let owner: { id: string; apiKey: string };
let requester: { id: string; apiKey: string };
let pushing: { a2a: SdkAgent; id: string };
let polled: { a2a: SdkAgent; id: string };

const now = () => new Date().toISOString();

function task(ctx: RequestContext, state: TaskState, text?: string): Task {
  return {
    id: ctx.taskId,
    contextId: ctx.contextId,
    status: { state, message: text ? agentMessage(ctx, text) : undefined, timestamp: now() },
    artifacts: [],
    history: [],
    metadata: undefined,
  };
}

function agentMessage(ctx: RequestContext, text: string): Message {
  return {
    messageId: `${ctx.taskId}-${Math.random()}`,
    contextId: ctx.contextId,
    taskId: ctx.taskId,
    role: 2,
    parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: '' }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

const status = (bus: ExecutionEventBus, ctx: RequestContext, state: TaskState, text?: string) =>
  bus.publish({ kind: 'statusUpdate', data: { taskId: ctx.taskId, contextId: ctx.contextId, status: { state, message: text ? agentMessage(ctx, text) : undefined, timestamp: now() }, metadata: undefined } });

const artifact = (bus: ExecutionEventBus, ctx: RequestContext, value: unknown) =>
  bus.publish({
    kind: 'artifactUpdate',
    data: {
      taskId: ctx.taskId,
      contextId: ctx.contextId,
      artifact: { artifactId: 'out', name: 'translation', description: '', parts: [{ content: { $case: 'data', value }, metadata: undefined, filename: '', mediaType: '' }], metadata: undefined, extensions: [] },
      append: false,
      lastChunk: true,
      metadata: undefined,
    },
  });

const dataOf = (m: Message) => m.parts.find((p) => p.content?.$case === 'data')?.content?.value as Record<string, unknown> | undefined;
const textOf = (m: Message) => m.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');

// What the agent does with a message, by the marker in the task's input (or an answer to its question).
function behaviour(ctx: RequestContext, bus: ExecutionEventBus) {
  const input = dataOf(ctx.userMessage) ?? {};
  if (ctx.task) {
    // The requester's answer to an input request.
    bus.publish({ kind: 'task', data: task(ctx, TaskState.TASK_STATE_WORKING) });
    artifact(bus, ctx, { text: `bonjour (${String(input.dialect)})` });
    status(bus, ctx, TaskState.TASK_STATE_COMPLETED);
    return bus.finished();
  }
  switch (input.mode) {
    case 'sync':
      bus.publish({ kind: 'task', data: { ...task(ctx, TaskState.TASK_STATE_WORKING) } });
      artifact(bus, ctx, { text: 'bonjour' });
      status(bus, ctx, TaskState.TASK_STATE_COMPLETED);
      return bus.finished();
    case 'later':
      // The executor runs on after the reply (returnImmediately); its later events are pushed.
      bus.publish({ kind: 'task', data: task(ctx, TaskState.TASK_STATE_SUBMITTED) });
      return new Promise<void>((resolve) =>
        setTimeout(() => {
          status(bus, ctx, TaskState.TASK_STATE_WORKING);
          artifact(bus, ctx, { text: 'salut' });
          status(bus, ctx, TaskState.TASK_STATE_COMPLETED);
          bus.finished();
          resolve();
        }, 200),
      );
    case 'fail':
      bus.publish({ kind: 'task', data: task(ctx, TaskState.TASK_STATE_WORKING) });
      status(bus, ctx, TaskState.TASK_STATE_FAILED, 'cannot translate Klingon');
      return bus.finished();
    case 'give-up':
      bus.publish({ kind: 'task', data: task(ctx, TaskState.TASK_STATE_WORKING) });
      status(bus, ctx, TaskState.TASK_STATE_CANCELED, 'out of capacity');
      return bus.finished();
    case 'ask':
      bus.publish({ kind: 'task', data: task(ctx, TaskState.TASK_STATE_SUBMITTED) });
      status(bus, ctx, TaskState.TASK_STATE_INPUT_REQUIRED, 'Which dialect?');
      return bus.finished();
    default:
      // Works until cancelled (the agent's cancelTask ends the bus).
      bus.publish({ kind: 'task', data: task(ctx, TaskState.TASK_STATE_WORKING) });
      return new Promise<void>((resolve) => bus.once('finished', () => resolve()));
  }
}

async function importAgent(opts: Parameters<typeof startSdkAgent>[0]) {
  const a2a = await startSdkAgent(opts);
  a2a.behave(behaviour);
  const res = await server.api.post('/v1/agents/import', { key: owner.apiKey, body: { cardUrl: a2a.cardUrl } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return { a2a, id: res.body.data.id as string };
}

const create = (agentId: string, input: Record<string, unknown>) =>
  server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 'Translate', description: 'Into French', agentId, input } }).then((r) => {
    if (r.status !== 201) throw new Error(JSON.stringify(r.body));
    return r.body.data as { id: string };
  });
const get = (id: string) => server.api.get(`/v1/tasks/${id}`, { key: requester.apiKey }).then((r) => r.body.data);
const deliveriesOf = async (agentId: string, taskId: string) =>
  ((await server.api.get(`/v1/agents/${agentId}/deliveries`, { key: owner.apiKey })).body.data as Array<{ taskId: string; type?: string; status: string; attempts: Array<{ statusCode: number | null; error: string | null }> }>).filter(
    (d) => d.taskId === taskId,
  );

const test = testWith({ serverEnv: { DELIVERY_MAX_ATTEMPTS: '3', A2A_BLOCKING_WAIT_MS: '15000' } });

test.beforeAll(async ({ server: s, owner: o, requester: r }) => {
  [server, owner, requester] = [s, o, r];
  pushing = await importAgent({ name: 'Pushing Parrot', pushNotifications: true });
  polled = await importAgent({ name: 'Polled Puffin', pushNotifications: false });
});
afterAll(async () => {
  await pushing?.a2a.close();
  await polled?.a2a.close();
});

describe('delivery over A2A', () => {
  it('sends SendMessage with messageId = task id; a completed reply completes the task with the artifacts', async () => {
    const t = await create(pushing.id, { mode: 'sync' });
    const done = await waitForStatus(() => get(t.id), ['completed']);
    expect(done.result.artifacts[0]).toMatchObject({ artifactId: 'out', name: 'translation', parts: [{ data: { text: 'bonjour' } }] });
    const message = pushing.a2a.received.find((m) => m.messageId === t.id)!;
    expect(textOf(message)).toBe('Translate\n\nInto French');
    expect(dataOf(message)).toEqual({ mode: 'sync' });
    const [delivery] = await deliveriesOf(pushing.id, t.id);
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: [{ statusCode: 200, error: null }] });
  });

  it('follows push notifications to the task’s callback URL (authenticated by the task token)', async () => {
    const t = await create(pushing.id, { mode: 'later' });
    await waitForStatus(() => get(t.id), ['in_progress']);
    const done = await waitForStatus(() => get(t.id), ['completed']);
    expect(done.result.artifacts[0].parts[0].data).toEqual({ text: 'salut' });
  });

  it('a push without the task token is refused', async () => {
    const t = await create(pushing.id, { mode: 'work' });
    const res = await fetch(`${server.url}/v1/tasks/${t.id}/callback`, {
      method: 'POST',
      headers: { authorization: 'Bearer not-the-token', 'content-type': 'application/a2a+json' },
      body: JSON.stringify({ statusUpdate: { taskId: 'x', contextId: 'x', status: { state: 'TASK_STATE_COMPLETED' } } }),
    });
    expect(res.status).toBe(401);
    await server.api.post(`/v1/tasks/${t.id}/cancel`, { key: requester.apiKey });
  });

  it('a failed task fails ours with the status message', async () => {
    const t = await create(pushing.id, { mode: 'fail' });
    const failed = await waitForStatus(() => get(t.id), ['failed']);
    expect(failed.error).toBe('cannot translate Klingon');
  });

  it('INPUT_REQUIRED asks the requester; the answer goes back with the same taskId and the task completes', async () => {
    const t = await create(pushing.id, { mode: 'ask' });
    await waitForStatus(() => get(t.id), ['input_required']);
    const answered = await server.api.post(`/v1/tasks/${t.id}/input`, { key: requester.apiKey, body: { input: { dialect: 'québécois' } } });
    expect(answered.status).toBe(200);
    const done = await waitForStatus(() => get(t.id), ['completed']);
    expect(done.result.artifacts[0].parts[0].data).toEqual({ text: 'bonjour (québécois)' });
    const first = pushing.a2a.received.find((m) => m.messageId === t.id)!;
    const answer = pushing.a2a.received.find((m) => m.messageId === `${t.id}-input-1`)!;
    expect(answer.taskId).not.toBe('');
    expect(dataOf(answer)).toEqual({ dialect: 'québécois' });
    // The first message started the agent's task; the answer continued it.
    expect(answer.taskId).toBe(first.taskId);
  });

  it('cancelling our task sends CancelTask to the agent', async () => {
    const t = await create(pushing.id, { mode: 'work' });
    await waitForStatus(() => get(t.id), ['in_progress']);
    const cancelled = await server.api.post(`/v1/tasks/${t.id}/cancel`, { key: requester.apiKey });
    expect(cancelled.body.data.status).toBe('cancelled');
    await until('CancelTask at the agent', () => pushing.a2a.cancelled.length > 0);
    // The SendMessage and the CancelTask, each a delivery with its attempt.
    await until('the CancelTask recorded', async () => {
      // Beside them, a GetTask may wait in case the agent's pushes stop.
      const deliveries = (await deliveriesOf(pushing.id, t.id)).filter((d) => d.type !== 'a2a.get');
      return deliveries.length === 2 && deliveries.every((d) => d.status === 'succeeded' && d.attempts.length === 1);
    });
  });
});

describe('A2A on both sides', () => {
  it('an A2A client’s task, relayed to an A2A agent, comes back with the agent’s own artifacts', async () => {
    const fetchImpl: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Bearer ${requester.apiKey}`);
      return fetch(input, { ...init, headers });
    };
    const factory = new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports: [new JsonRpcTransportFactory({ fetchImpl })] }));
    const client = await factory.createFromUrl(`${server.url}/a2a/agents/pushing-parrot/.well-known/agent-card.json`, '');
    const reply = (await client.sendMessage({
      tenant: '',
      message: { messageId: 'relay-1', contextId: '', taskId: '', role: 1, parts: [{ content: { $case: 'text', value: 'Relay' }, metadata: undefined, filename: '', mediaType: '' }, { content: { $case: 'data', value: { mode: 'sync' } }, metadata: undefined, filename: '', mediaType: '' }], metadata: undefined, extensions: [], referenceTaskIds: [] },
      configuration: { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: false },
      metadata: undefined,
    })) as Task;
    expect(reply.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(reply.artifacts[0]).toMatchObject({ artifactId: 'out', name: 'translation', parts: [{ content: { $case: 'data', value: { text: 'bonjour' } } }] });
  });
});

describe('the agent cancels', () => {
  it('CANCELED from the agent cancels our task, and no CancelTask goes back', async () => {
    const before = pushing.a2a.cancelled.length;
    const t = await create(pushing.id, { mode: 'give-up' });
    const cancelled = await waitForStatus(() => get(t.id), ['cancelled']);
    expect(cancelled.payment.status).not.toBe('captured');
    const history = (await server.api.get(`/v1/tasks/${t.id}/history`, { key: requester.apiKey })).body.data as Array<{ actor: string; toStatus: string }>;
    expect(history.at(-1)).toMatchObject({ actor: 'agent', toStatus: 'cancelled' });
    // A CancelTask would be a delivery written in the transaction that cancelled our task.
    expect((await deliveriesOf(pushing.id, t.id)).map((d) => d.type)).not.toContain('a2a.cancel');
    expect(pushing.a2a.cancelled.length).toBe(before);
  });
});

describe('a v0.3 agent', () => {
  it('gets message/send and is polled with tasks/get', async () => {
    const old = await importAgent({ name: 'Vintage Vulture', pushNotifications: false, protocolVersion: '0.3' });
    try {
      const t = await create(old.id, { mode: 'sync' });
      const done = await until('completed over v0.3', async () => {
        await makeJobsDue(server.prisma, { name: 'task.deliver' });
        const now = await get(t.id);
        return now.status === 'completed' ? now : null;
      });
      expect(done.result.artifacts[0].parts[0]).toMatchObject({ data: { text: 'bonjour' } });
      expect(old.a2a.methods[0]).toBe('message/send');
      expect(old.a2a.received[0]!.messageId).toBe(t.id);
    } finally {
      await old.a2a.close();
    }
  });
});

describe('an agent without push support', () => {
  it('is polled with GetTask until the task completes; each poll is an attempt in the log', async () => {
    const t = await create(polled.id, { mode: 'later' });
    await waitForStatus(() => get(t.id), ['in_progress']);
    // Polls wait seconds apart; the test makes each due instead of waiting.
    const done = await until('completed through polling', async () => {
      await makeJobsDue(server.prisma, { name: 'task.deliver' });
      const now = await get(t.id);
      return now.status === 'completed' ? now : null;
    });
    expect(done.result.artifacts[0].parts[0].data).toEqual({ text: 'salut' });
    const deliveries = await deliveriesOf(polled.id, t.id);
    expect(deliveries.length).toBeGreaterThanOrEqual(2);
    expect(deliveries.every((d) => d.status === 'succeeded' && d.attempts.length === 1)).toBe(true);
  });
});
