// taskUpdated listens for changes before it reads the task's current state: a change that lands right
// after the read (here: inside it, through a hook) still reaches the subscriber as an event.
import { expect, testWith } from './support/fixtures.js';
import type { TaskEvent } from '../src/events/bus.js';

const test = testWith({ agentProfile: { name: 'Watched' } });

test('does not lose a change that lands between reading the task and listening for changes', async ({ server, requester, agent }) => {
  agent.http.respondWith([500]);
  const task = (await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 't', description: 'd', agentId: agent.id } })).body.data;

  // The read of the subscription is followed, before it returns, by a cancellation whose event has
  // already gone through the event bus.
  const tasks = server.app.services.tasks;
  const read = tasks.get;
  tasks.get = async (viewer, id) => {
    const current = await read(viewer, id);
    tasks.get = read;
    const seen = new AbortController();
    const events = server.app.services.deps.events.subscribe({ taskId: id }, seen.signal)[Symbol.asyncIterator]();
    const cancelled = (async () => {
      for (let next = events.next(); ; next = events.next()) {
        const { value, done } = await next;
        if (done || (value as TaskEvent).status === 'cancelled') return;
      }
    })();
    await server.api.post(`/v1/tasks/${id}/cancel`, { key: requester.apiKey });
    await cancelled;
    seen.abort();
    return current;
  };

  const abort = new AbortController();
  // A generous bound that no assertion depends on: without the event, the stream would wait forever.
  const bound = setTimeout(() => abort.abort(), 15_000);
  const res = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${requester.apiKey}` },
    body: JSON.stringify({ query: 'subscription($id: ID!) { taskUpdated(id: $id) { status } }', variables: { id: task.id } }),
    signal: abort.signal,
  });
  const reader = res.body!.getReader();
  let text = '';
  try {
    // The current state, then the change as an event of its own.
    while ((text.match(/event: next/g) ?? []).length < 2) {
      const { value, done } = await reader.read();
      if (done) break;
      text += Buffer.from(value).toString('utf8');
    }
  } catch {
    // aborted by the bound
  } finally {
    clearTimeout(bound);
    abort.abort();
  }
  const payloads = text.split('event: next').slice(1);
  expect(payloads).toHaveLength(2);
  expect(payloads[1]).toContain('"cancelled"');
}, 60_000);
