// Files over A2A and MCP with the official SDK clients: an A2A client sends a file part and gets an
// artifact with the result file back; an MCP client creates a task with a file and get_task links the
// task's files.
import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Role, TaskState, type Message, type Part, type Task } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { callBack, waitForStatus, type ReceivedDelivery } from './support/agent.js';
import { describe, expect, testWith } from './support/fixtures.js';

// The test agent reads each delivered file by its signed link, and answers with a result file of its own.
async function answerWithFile(d: ReceivedDelivery): Promise<void> {
  const files = (d.body as any).files as Array<{ url: string; filename: string }>;
  const texts = await Promise.all(files.map(async (f) => (await fetch(f.url)).text()));
  const res = await fetch(`${d.body.callbackUrl.replace(/\/callback$/, '')}/files?filename=answer.txt`, {
    method: 'POST',
    headers: { authorization: `Bearer ${d.body.taskToken}`, 'content-type': 'text/plain' },
    body: `read: ${texts.join(' | ')}`,
  });
  const file = ((await res.json()) as any).data;
  await callBack(d, { result: { answer: { $file: file.id } } });
}

// The fixture agent, answering every delivery with a result file: tasks that ask for reading go to it.
const test = testWith({
  serverEnv: { DATA_DIR: await mkdtemp(path.join(os.tmpdir(), 'files-')), A2A_BLOCKING_WAIT_MS: '15000' },
  agentProfile: { name: 'File Reader', capabilities: ['reading'], protocols: ['http'] },
}).extend('reader', { scope: 'file' }, async ({ agent }) => {
  agent.http.onDelivery((d) => answerWithFile(d));
  return agent.http;
});

describe('A2A', () => {
  test('takes a raw file part as a file of the task and answers with the result file as a url part', async ({ server, requester, reader: agent }) => {
    const fetchImpl: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Bearer ${requester.apiKey}`);
      return fetch(input, { ...init, headers });
    };
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new JsonRpcTransportFactory({ fetchImpl })],
        cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
      }),
    );
    const client = await factory.createFromUrl(`${server.url}/a2a/agents/file-reader/.well-known/agent-card.json`, '');
    const parts: Part[] = [
      { content: { $case: 'text', value: 'Read this note' }, metadata: undefined, filename: '', mediaType: '' },
      { content: { $case: 'raw', value: Buffer.from('a note from A2A') }, metadata: undefined, filename: 'note.txt', mediaType: 'text/plain' },
    ];
    const message: Message = { messageId: randomUUID(), contextId: '', taskId: '', role: Role.ROLE_USER, parts, metadata: undefined, extensions: [], referenceTaskIds: [] };
    const sent = (await client.sendMessage({ tenant: '', message, configuration: { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: false }, metadata: undefined })) as Task;
    const task = (await waitForStatus(async () => {
      const got = await client.getTask({ tenant: '', id: sent.id, historyLength: 0 });
      return { ...got, status: got.status?.state === TaskState.TASK_STATE_COMPLETED ? 'completed' : String(got.status?.state) };
    }, ['completed'])) as Task;

    // The input named the stored part.
    const ours = (await server.api.get(`/v1/tasks/${task.id}`, { key: requester.apiKey })).body.data;
    expect(ours.input.files).toHaveLength(1);
    const delivered = agent.received.find((d) => d.body.taskId === task.id)!;
    expect((delivered.body as any).files[0]).toMatchObject({ filename: 'note.txt', mediaType: 'text/plain', size: 15 });

    const files = task.artifacts.find((a) => a.name === 'files')!;
    expect(files.parts).toHaveLength(1);
    const part = files.parts[0]!;
    expect(part).toMatchObject({ filename: 'answer.txt', mediaType: 'text/plain' });
    expect(part.content?.$case).toBe('url');
    const url = part.content!.value as string;
    const download = await fetch(url, { headers: { authorization: `Bearer ${requester.apiKey}` } });
    expect(await download.text()).toBe('read: a note from A2A');
  });
});

describe('MCP', () => {
  // The reader answers the task this creates.
  test('create_task takes a file reference and get_task links the input and result files', async ({ server, requester, reader: _ }) => {
    const upload = await fetch(`${server.url}/v1/files?filename=brief.txt`, {
      method: 'POST',
      headers: { authorization: `Bearer ${requester.apiKey}`, 'content-type': 'text/plain' },
      body: 'the brief',
    });
    const file = ((await upload.json()) as any).data;
    const client = new McpClient({ name: 'test-host', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', server.url), { requestInit: { headers: { authorization: `Bearer ${requester.apiKey}` } } }));
    try {
      const created = (await client.callTool({ name: 'create_task', arguments: { title: 'Read', description: 'Read the brief', capabilities: ['reading'], input: { brief: { $file: file.id } } } })) as CallToolResult;
      expect(created.isError).toBeFalsy();
      const id = (created.structuredContent as any).data.id as string;
      await waitForStatus(async () => ((await client.callTool({ name: 'get_task', arguments: { id } })) as any).structuredContent.data, ['completed']);
      const got = (await client.callTool({ name: 'get_task', arguments: { id } })) as CallToolResult;
      const links = got.content.filter((c) => c.type === 'resource_link') as Array<{ uri: string; name: string; mimeType?: string }>;
      expect(links.map((l) => l.name).sort()).toEqual(['answer.txt', 'brief.txt']);
      const answer = links.find((l) => l.name === 'answer.txt')!;
      const res = await fetch(answer.uri, { headers: { authorization: `Bearer ${requester.apiKey}` } });
      expect(await res.text()).toBe('read: the brief');
    } finally {
      await client.close();
    }
  });
});
