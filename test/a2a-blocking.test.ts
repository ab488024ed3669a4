// A blocking SendMessage (no returnImmediately) answers the task as it is once A2A_BLOCKING_WAIT_MS has
// passed, when the agent has neither finished nor asked for input: it never hangs on a silent agent.
import { randomUUID } from 'node:crypto';
import { Role, TaskState, type Task } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { describe, expect, testWith } from './support/fixtures.js';

const test = testWith({
  serverEnv: { A2A_BLOCKING_WAIT_MS: '400' },
});

describe('blocking SendMessage', () => {
  test('answers the unfinished task after the wait', async ({ server, requester, agent }) => {
    agent.http.onDelivery(null);
    // The agent holds its answer: nothing about the task changes while the call waits.
    const release = agent.http.hold();
    const fetchImpl: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Bearer ${requester.apiKey}`);
      return fetch(input, { ...init, headers });
    };
    const factory = new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports: [new JsonRpcTransportFactory({ fetchImpl })] }));
    const client = await factory.createFromUrl(server.url);
    const started = Date.now();
    const task = (await client.sendMessage({
      tenant: '',
      message: { messageId: randomUUID(), contextId: '', taskId: '', role: Role.ROLE_USER, parts: [{ content: { $case: 'text', value: 'Wait for me' }, metadata: undefined, filename: '', mediaType: '' }], metadata: undefined, extensions: [], referenceTaskIds: [] },
      configuration: { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: false },
      metadata: { agentId: agent.id },
    })) as Task;
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
    expect(Date.now() - started).toBeLessThan(5000);
    expect([TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING]).toContain(task.status?.state);
    await client.cancelTask({ tenant: '', id: task.id, metadata: undefined });
    release();
  });
});
