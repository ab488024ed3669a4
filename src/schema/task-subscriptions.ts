// Live task status over graphql-ws and SSE. Each subscription first yields the current state, then
// every change. Only the requester and the owner of the assigned agent receive a task's events.
import type { TaskEvent } from '../events/bus.js';
import type { Context } from './context.js';
import { builder } from './builder.js';
import { TaskRef, TaskRoleEnum } from './tasks.js';

interface Listening {
  stream: AsyncIterator<TaskEvent>;
  abort: AbortController;
}

function listen(ctx: Context): Listening {
  const abort = new AbortController();
  return { abort, stream: ctx.services.deps.events.subscribe(abort.signal)[Symbol.asyncIterator]() };
}

async function* eventsFor({ stream, abort }: Listening, keep: (event: TaskEvent) => boolean, first: string[]): AsyncGenerator<string> {
  try {
    yield* first;
    for (;;) {
      const next = await stream.next();
      if (next.done) return;
      if (keep(next.value)) yield next.value.taskId;
    }
  } finally {
    abort.abort();
  }
}

builder.subscriptionType({});

builder.subscriptionFields((t) => ({
  taskUpdated: t.field({
    type: TaskRef,
    description: 'The task now, then each change of it',
    authScopes: { user: true },
    args: { id: t.arg.id({ required: true }) },
    subscribe: async (_root, args, ctx) => {
      // Listen first, then read: a change between the two arrives as an event instead of being lost.
      const listening = listen(ctx);
      try {
        const task = await ctx.services.tasks.get(ctx.viewer!, String(args.id));
        return eventsFor(listening, (e) => e.taskId === task.id, [task.id]);
      } catch (error) {
        listening.abort.abort();
        throw error;
      }
    },
    resolve: (taskId: unknown, _args, ctx) => ctx.prisma.task.findUniqueOrThrow({ where: { id: taskId as string } }),
  }),
  taskEvents: t.field({
    type: TaskRef,
    description: "Each change of any of the caller's tasks, as requester or as the owner of the assigned agent",
    authScopes: { user: true },
    args: { role: t.arg({ type: TaskRoleEnum }) },
    subscribe: (_root, args, ctx) => {
      const me = ctx.viewer!.id;
      const asRequester = args.role !== 'agent';
      const asAgent = args.role !== 'requester';
      return eventsFor(listen(ctx), (e) => (asRequester && e.requesterId === me) || (asAgent && e.agentOwnerId === me), []);
    },
    resolve: (taskId: unknown, _args, ctx) => ctx.prisma.task.findUniqueOrThrow({ where: { id: taskId as string } }),
  }),
}));
