// An example A2A agent built with @a2a-js/sdk's server: it reverses `text` (the data part's, or the
// message's text). Its card is at /.well-known/agent-card.json, its JSON-RPC interface at /a2a, and it
// sends push notifications. Import it into the marketplace with POST /v1/agents/import.
//   node --import tsx examples/a2a-agent/agent.ts     (A2A_AGENT_PORT, default 4410)
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import express from 'express';
import { TaskState, type AgentCard, type Message, type Part } from '@a2a-js/sdk';
import {
  DefaultPushNotificationSender,
  DefaultRequestHandler,
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
  type AgentExecutor,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';

const port = Number(process.env.A2A_AGENT_PORT ?? 4410);
const base = `http://127.0.0.1:${port}`;

const card: AgentCard = {
  name: 'Example Reverser',
  description: 'Reverses text, over A2A',
  version: '1.0.0',
  provider: { organization: 'Task marketplace examples', url: base },
  supportedInterfaces: [{ url: `${base}/a2a`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' }],
  capabilities: { streaming: true, pushNotifications: true, extensions: [] },
  securitySchemes: {},
  securityRequirements: [],
  defaultInputModes: ['text/plain', 'application/json'],
  defaultOutputModes: ['application/json'],
  skills: [{ id: 'reverse', name: 'Reverse text', description: 'Reverses input.text', tags: ['text', 'example'], examples: [], inputModes: [], outputModes: [], securityRequirements: [] }],
  signatures: [],
};

const part = (value: unknown): Part => ({ content: { $case: 'data', value }, metadata: undefined, filename: '', mediaType: 'application/json' });

function textOf(message: Message): string {
  for (const p of message.parts) {
    if (p.content?.$case === 'data' && typeof (p.content.value as { text?: unknown })?.text === 'string') return (p.content.value as { text: string }).text;
  }
  return message.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');
}

const executor: AgentExecutor = {
  async execute(ctx, bus) {
    const now = () => new Date().toISOString();
    bus.publish({ kind: 'task', data: { id: ctx.taskId, contextId: ctx.contextId, status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: now() }, artifacts: [], history: [ctx.userMessage], metadata: undefined } });
    const reversed = [...textOf(ctx.userMessage)].reverse().join('');
    bus.publish({
      kind: 'artifactUpdate',
      data: { taskId: ctx.taskId, contextId: ctx.contextId, artifact: { artifactId: randomUUID(), name: 'reversed', description: '', parts: [part({ text: reversed })], metadata: undefined, extensions: [] }, append: false, lastChunk: true, metadata: undefined },
    });
    bus.publish({ kind: 'statusUpdate', data: { taskId: ctx.taskId, contextId: ctx.contextId, status: { state: TaskState.TASK_STATE_COMPLETED, message: undefined, timestamp: now() }, metadata: undefined } });
    bus.finished();
  },
  async cancelTask(taskId, bus) {
    bus.publish({ kind: 'statusUpdate', data: { taskId, contextId: taskId, status: { state: TaskState.TASK_STATE_CANCELED, message: undefined, timestamp: new Date().toISOString() }, metadata: undefined } });
    bus.finished();
  },
};

const pushes = new InMemoryPushNotificationStore();
const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor, undefined, pushes, new DefaultPushNotificationSender(pushes));
const app = express();
app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: handler }));
app.use('/a2a', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
http.createServer(app).listen(port, '127.0.0.1', () => console.log(`A2A agent on ${base} (card ${base}/.well-known/agent-card.json)`));

