// One task event reaches all of a process's subscribers at the cost of one read of the task per
// selection, however many subscribers there are: the queries the service makes while the event fans
// out are counted at its database client, with many subscribers (WebSocket and SSE, to one task and
// to all of the user's tasks) and two selections.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PrismaClient } from '../src/db/client.js';
import { startTestServer, type TestServer } from './support/server.js';
import { openSocket, openSse, TASK_UPDATED } from './support/subscriptions.js';
import { until } from './support/wait.js';

let server: TestServer;
let counting = false;
const queries: string[] = [];

// The service's client, with every operation it runs (model and raw alike) noted while counting.
const countingClient = (prisma: PrismaClient) =>
  prisma.$extends({
    query: {
      async $allOperations({ model, operation, args, query }) {
        if (counting) queries.push(`${model ?? 'raw'}.${operation}`);
        return query(args);
      },
    },
  }) as unknown as PrismaClient;

beforeAll(async () => {
  server = await startTestServer({ SUBSCRIPTIONS_PER_USER: '100', SUBSCRIPTIONS_PER_ADDRESS: '100' }, { wrapPrisma: countingClient });
});
afterAll(async () => {
  await server?.close();
});

// Another selection, which loads the task's history with it.
const WITH_HISTORY = 'subscription($id: ID!) { taskUpdated(id: $id) { id status history { action } } }';
const ALL_MINE = 'subscription { taskEvents(role: requester) { id status } }';

it('reads the task once per selection for an event, not once per subscriber', async () => {
  const requester = await server.createUser();
  // No agent offers this, so the task stays pending and only the test's events move its subscribers.
  const task = (await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 'Watched', description: 'd', capabilities: ['nobody-offers-this'] } })).body.data;
  const variables = { id: task.id };
  const sockets = [
    ...Array.from({ length: 12 }, () => openSocket(server.url, requester.apiKey, TASK_UPDATED, variables)),
    ...Array.from({ length: 6 }, () => openSocket(server.url, requester.apiKey, WITH_HISTORY, variables)),
  ];
  const streams = await Promise.all(Array.from({ length: 4 }, () => openSse(server.url, requester.apiKey, TASK_UPDATED, variables)));
  const allMine = Array.from({ length: 4 }, () => openSocket(server.url, requester.apiKey, ALL_MINE, {}));
  const sseEvents = () => streams.map((s) => (s.text.match(/event: next/g) ?? []).length);
  const bus = server.app.services.deps.events;
  const announce = () => bus.publish({ taskId: task.id, status: 'pending', requesterId: requester.id, agentOwnerId: null });
  // Each is registered with the bus before its task is read; taskUpdated's current state follows
  // (taskEvents sends none). With nothing announced yet, nothing else is on its way to them.
  await until(
    'every subscriber is listening',
    () => bus.count() === sockets.length + streams.length + allMine.length && sockets.every((s) => s.statuses.length === 1) && sseEvents().every((n) => n === 1),
  );
  const seen = { sockets: sockets.map((s) => s.statuses.length), sse: sseEvents(), allMine: allMine.map((s) => s.statuses.length) };

  counting = true;
  await announce();
  await until(
    'every subscriber has the event',
    () =>
      sockets.every((s, i) => s.statuses.length === seen.sockets[i]! + 1) &&
      sseEvents().every((n, i) => n === seen.sse[i]! + 1) &&
      allMine.every((s, i) => s.statuses.length === seen.allMine[i]! + 1),
  );
  counting = false;

  // Two selections of the task's row (its columns, for taskUpdated and taskEvents alike; and its columns
  // with its history): two reads, and nothing else, for 26 subscribers.
  expect(queries.sort()).toEqual(['Task.findUniqueOrThrow', 'Task.findUniqueOrThrow']);
  expect(sockets.flatMap((s) => s.errors)).toEqual([]);
  for (const s of [...sockets, ...allMine]) s.dispose();
  for (const s of streams) s.close();
});

it('lets go of a subscriber that leaves, without waiting for an event of its task', async () => {
  const requester = await server.createUser();
  const task = (await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 'Left', description: 'd', capabilities: ['nobody-offers-this'] } })).body.data;
  const bus = server.app.services.deps.events;
  // The first test's subscribers, which left at its end, are let go of too.
  await until('no one is listening', () => bus.count() === 0);
  const socket = openSocket(server.url, requester.apiKey, TASK_UPDATED, { id: task.id });
  const stream = await openSse(server.url, requester.apiKey, TASK_UPDATED, { id: task.id });
  await until('both are listening', () => socket.statuses.length === 1 && stream.text.includes('event: next') && bus.count() === 2);
  socket.dispose();
  stream.close();
  await until('both registrations are gone', () => bus.count() === 0);
});
