// Live task status over graphql-ws and SSE. Each subscription first yields the current state, then
// every change. Only the requester and the owner of the assigned agent receive a task's events.
import type { Interest, TaskEvent } from '../events/bus.js';
import type { Context } from './context.js';
import { builder } from './builder.js';
import { TaskRoleEnum } from './tasks.js';

interface Listening {
  stream: AsyncIterator<TaskEvent>;
  abort: AbortController;
}

function listen(ctx: Context, interest: Interest): Listening {
  const abort = new AbortController();
  return { abort, stream: ctx.services.deps.events.subscribe(interest, abort.signal)[Symbol.asyncIterator]() };
}

// The events a subscriber is sent, after `first`. An iterator, not an async generator: a generator
// waiting for the next event would hold back return() (the client unsubscribing) until an event came,
// and its registration on the bus with it, forever for a task that never changes again.
function eventsFor({ stream, abort }: Listening, keep: (event: TaskEvent) => boolean, first: TaskEvent[]): AsyncIterableIterator<TaskEvent> {
  const pending = [...first];
  const end = async (): Promise<IteratorResult<TaskEvent>> => {
    abort.abort();
    await stream.return?.();
    return { done: true, value: undefined };
  };
  return {
    async next() {
      const head = pending.shift();
      if (head) return { done: false, value: head };
      for (;;) {
        const step = await stream.next();
        if (step.done) return end();
        if (keep(step.value)) return step;
      }
    },
    return: end,
    throw: async (error: unknown) => {
      await end();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

// The task as it is after an event, read once per event and selection for every subscriber of this
// process that asked for the same fields: the bus hands each subscriber the same event object, so a
// thousand subscribers of one task cost one read, not a thousand. Whether a subscriber may see the task
// was decided when it subscribed (its interest: the task it was allowed to read, or its own tasks).
const snapshots = new WeakMap<TaskEvent, Map<string, Promise<unknown>>>();

function taskAfter(event: TaskEvent, query: object, ctx: Context): Promise<unknown> {
  let bySelection = snapshots.get(event);
  if (!bySelection) snapshots.set(event, (bySelection = new Map()));
  const key = JSON.stringify(query);
  let task = bySelection.get(key);
  if (!task) bySelection.set(key, (task = ctx.prisma.task.findUniqueOrThrow({ ...query, where: { id: event.taskId } })));
  return task;
}

builder.subscriptionType({});

builder.subscriptionFields((t) => ({
  taskUpdated: t.prismaField({
    type: 'Task',
    description: 'The task now, then each change of it',
    authScopes: { scope: 'tasks:read' },
    args: { id: t.arg.id({ required: true }) },
    subscribe: async (_root, args, ctx) => {
      // Listen first, then read: a change between the two arrives as an event instead of being lost.
      const id = String(args.id);
      const listening = listen(ctx, { taskId: id });
      try {
        const task = await ctx.services.tasks.get(ctx.viewer!, id);
        // The current state is this subscriber's own (an event object no one else is given).
        const now: TaskEvent = { taskId: task.id, status: task.status, requesterId: task.requesterId, agentOwnerId: null };
        return eventsFor(listening, () => true, [now]);
      } catch (error) {
        listening.abort.abort();
        throw error;
      }
    },
    resolve: (query, event, _args, ctx) => taskAfter(event as TaskEvent, query, ctx) as never,
  }),
  taskEvents: t.prismaField({
    type: 'Task',
    description: "Each change of any of the caller's tasks, as requester or as the owner of the assigned agent",
    authScopes: { scope: 'tasks:read' },
    args: { role: t.arg({ type: TaskRoleEnum }) },
    subscribe: (_root, args, ctx) => {
      const me = ctx.viewer!.id;
      const asRequester = args.role !== 'agent';
      const asAgent = args.role !== 'requester';
      return eventsFor(listen(ctx, { userId: me }), (e) => (asRequester && e.requesterId === me) || (asAgent && e.agentOwnerId === me), []);
    },
    resolve: (query, event, _args, ctx) => taskAfter(event as TaskEvent, query, ctx) as never,
  }),
}));
