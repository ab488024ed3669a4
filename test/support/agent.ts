// A real agent on loopback: receives deliveries, checks their signature with its secret the way the
// spec tells agents to, answers with scripted statuses, and can call back with a result.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyServiceSignature } from '../../src/delivery/signing.js';
import { until } from './wait.js';

export interface ReceivedDelivery {
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
  body: {
    taskId: string;
    taskToken: string;
    title: string;
    description: string;
    input: unknown;
    callbackUrl: string;
    capabilities: string[];
    priority: string;
    expiresAt: string;
    inputHash?: string | null;
    // task.input deliveries (the requester's answer to an input request).
    type?: string;
    round?: number;
  };
  signatureValid: boolean | null;
}

export interface TestAgent {
  url: string;
  received: ReceivedDelivery[];
  secret: string | null;
  // Statuses to answer with, in order; the last one repeats. Default 200.
  respondWith(statuses: number[], extraHeaders?: Record<string, string>): void;
  // What to do after answering a delivery: call back with a result or an error.
  onDelivery(handler: ((d: ReceivedDelivery) => Promise<void> | void) | null): void;
  // Call back before answering the delivery (the agent answers first, then its 2xx arrives).
  callbackBeforeAnswer(on: boolean): void;
  // A slow agent: deliveries are received but not answered until the returned function is called.
  hold(): () => void;
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedDelivery[]>;
  close(): Promise<void>;
}

export async function callBack(
  d: ReceivedDelivery,
  payload: { result?: unknown; error?: string; inputRequired?: { message: string; inputSchema?: unknown } },
  token = d.body.taskToken) {
  const res = await fetch(d.body.callbackUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ taskToken: token, ...payload }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

export async function startTestAgent(): Promise<TestAgent> {
  const received: ReceivedDelivery[] = [];
  let statuses = [200];
  let extra: Record<string, string> = {};
  let handler: ((d: ReceivedDelivery) => Promise<void> | void) | null = null;
  let callbackFirst = false;
  let gate: Promise<void> | null = null;
  const agent: TestAgent = {
    url: '',
    received,
    secret: null,
    respondWith(s, headers = {}) {
      statuses = s;
      extra = headers;
    },
    onDelivery(h) {
      handler = h;
    },
    callbackBeforeAnswer(on) {
      callbackFirst = on;
    },
    hold() {
      let release!: () => void;
      gate = new Promise<void>((resolve) => (release = resolve));
      return () => {
        gate = null;
        release();
      };
    },
    waitFor: (count, timeoutMs = 20_000) => until(`${count} deliveries`, () => received.length >= count && received, timeoutMs),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks);
      const header = req.headers['x-service-signature'] as string | undefined;
      const d: ReceivedDelivery = {
        headers: req.headers,
        raw,
        body: JSON.parse(raw.toString('utf8')),
        signatureValid: agent.secret ? verifyServiceSignature(agent.secret, raw, header) : null,
      };
      received.push(d);
      const status = statuses[Math.min(received.length - 1, statuses.length - 1)]!;
      if (gate) await gate;
      if (res.destroyed) return;
      if (callbackFirst && handler) await handler(d);
      res.writeHead(status, { 'content-type': 'application/json', ...extra });
      const callBackAfterAnswer = !callbackFirst && handler && status >= 200 && status < 300;
      // The answer has been handed to the socket before the agent calls back, so no timer sets the order.
      res.end('{}', () => {
        if (callBackAfterAnswer) void handler?.(d);
      });
    });
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  agent.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tasks`;
  return agent;
}

// Polls until the task reaches one of the statuses (deliveries and jobs run in the background).
export function waitForStatus(get: () => Promise<any>, statuses: string[], timeoutMs = 20_000): Promise<any> {
  return until(`status ${statuses.join(' or ')}`, async () => {
    const task = await get();
    return statuses.includes(task.status) ? task : false;
  }, timeoutMs);
}
