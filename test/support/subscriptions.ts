// Opens task subscriptions the way clients do (graphql-ws over a WebSocket, GraphQL over SSE with fetch)
// and records what arrives and how they end.
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { startTestAgent, type TestAgent } from './agent.js';
import type { TestServer } from './server.js';

// An agent of the owner whose endpoint never answers 2xx, so tasks sent to it stay matched until someone
// moves them: a task whose status changes only when a test says so.
export async function agentKeepingTasksMatched(server: TestServer, ownerKey: string): Promise<{ agentHttp: TestAgent; agentId: string }> {
  const agentHttp = await startTestAgent();
  agentHttp.respondWith([500]);
  const agentId = (await server.api.post('/v1/agents', { key: ownerKey, body: { name: 'Live', endpoint: agentHttp.url } })).body.data.id as string;
  return { agentHttp, agentId };
}

export const TASK_UPDATED = 'subscription($id: ID!) { taskUpdated(id: $id) { id status } }';

// One socket with one subscription (taskUpdated or taskEvents).
export function openSocket(baseUrl: string, key: string, query: string, variables: Record<string, unknown>) {
  const statuses: string[] = [];
  const errors: unknown[] = [];
  let onClosed: (close: { code: number; reason: string }) => void = () => {};
  const closed = new Promise<{ code: number; reason: string }>((resolve) => (onClosed = resolve));
  const client = createClient({
    url: baseUrl.replace('http', 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${key}` },
    retryAttempts: 0,
    on: { closed: (event) => onClosed({ code: (event as { code: number }).code, reason: (event as { reason: string }).reason }) },
  });
  let settle: () => void = () => {};
  const ended = new Promise<void>((resolve) => (settle = resolve));
  client.subscribe<{ taskUpdated?: { status: string }; taskEvents?: { status: string } }>(
    { query, variables },
    {
      next: (value) => {
        if (value.errors) errors.push(...value.errors);
        const task = value.data?.taskUpdated ?? value.data?.taskEvents;
        if (task) statuses.push(task.status);
      },
      error: (error) => {
        errors.push(error);
        settle();
      },
      complete: () => settle(),
    },
  );
  return { statuses, errors, closed, ended, dispose: () => client.dispose() };
}

export interface SseEvent {
  event: string;
  data: unknown;
}

// One SSE request; `ended` resolves when the server ends the stream.
export async function openSse(baseUrl: string, key: string, query: string, variables: Record<string, unknown>) {
  const abort = new AbortController();
  const res = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${key}` },
    body: JSON.stringify({ query, variables }),
    signal: abort.signal,
  });
  const state = { status: res.status, text: '', events: [] as SseEvent[], body: null as unknown, ended: Promise.resolve(), close: () => abort.abort() };
  if (!res.headers.get('content-type')?.includes('text/event-stream')) {
    state.body = await res.json();
    return state;
  }
  const reader = res.body!.getReader();
  state.ended = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        state.text += Buffer.from(value).toString('utf8');
      }
    } catch {
      // aborted by the test
    }
    state.events = parseEvents(state.text);
  })();
  return state;
}

function parseEvents(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.split('\n\n')) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trim());
    }
    if (data.length === 0 && event === 'message') continue;
    const joined = data.join('\n');
    events.push({ event, data: joined ? JSON.parse(joined) : null });
  }
  return events;
}
