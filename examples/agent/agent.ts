// The example agent: registers itself with a local service (or finds itself, when it already is),
// takes a fresh webhook secret, and completes tasks: it upper-cases `input.text`.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { deliveryHandler, type CallbackAnswer, type Delivery } from './kit.js';

export interface ExampleAgentOptions {
  serviceUrl: string;
  apiKey: string;
  port: number;
  host?: string;
  name?: string;
  log?: (line: string) => void;
}

const INPUT_SCHEMA = { type: 'object', required: ['text'], properties: { text: { type: 'string', maxLength: 10000 } } };

// What the agent does with a task.
async function work(delivery: Delivery): Promise<unknown> {
  const text = (delivery.input as { text?: unknown } | null)?.text;
  if (typeof text !== 'string') throw new Error('input.text must be a string');
  return { text: text.toUpperCase() };
}

// The service's answers, as far as the agent reads them.
type Answer = { data?: unknown; webhookSecret?: string; error?: { code: string; message: string } };

async function api(opts: ExampleAgentOptions, method: string, path: string, body?: unknown): Promise<Answer> {
  const res = await fetch(opts.serviceUrl + path, {
    method,
    headers: { authorization: `Bearer ${opts.apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const answer = (await res.json()) as Answer;
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${answer?.error?.code ?? ''} ${answer?.error?.message ?? ''}`);
  return answer;
}

export async function startExampleAgent(opts: ExampleAgentOptions) {
  const log = opts.log ?? (() => {});
  let secret = '';
  const onCallback = (d: Delivery, answer: CallbackAnswer) => log(`task ${d.taskId}: callback answered ${answer.status} ${JSON.stringify(answer.body)}`);
  const server = http.createServer(deliveryHandler({ secret: () => secret, work, onCallback, onRejected: (why) => log(`refused a delivery: ${why}`) }));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://${opts.host && opts.host !== '0.0.0.0' ? opts.host : '127.0.0.1'}:${port}/tasks`;
  try {
    const mine = (await api(opts, 'GET', '/v1/agents')).data as Array<{ id: string; endpoint: string }>;
    let agent = mine.find((a) => a.endpoint === endpoint);
    agent ??= (
      await api(opts, 'POST', '/v1/agents', {
        name: opts.name ?? 'Example Uppercase Agent',
        endpoint,
        description: 'Upper-cases text: the example agent of the task marketplace',
        capabilities: ['uppercase', 'text'],
        protocols: ['http'],
        priceCents: 0,
        inputSchema: JSON.stringify(INPUT_SCHEMA),
      })
    ).data as { id: string; endpoint: string };
    secret = (await api(opts, 'POST', `/v1/agents/${agent.id}/webhook-secret`)).webhookSecret!;
    log(`agent ${agent.id} listening on ${endpoint}`);
    return {
      agentId: agent.id,
      endpoint,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  } catch (error) {
    server.close();
    throw error;
  }
}
