// Reading tasks: one for a party of it, a page of a requester's or an agent owner's, and the checks of
// who may move a task.
import { Prisma, type Task, type TaskStatus } from '../../generated/prisma/client.js';
import { forbidden, invalid, notFound } from '../../errors.js';
import { findTask, taskWithAgentOwner } from '../../stores/task-store.js';
import type { Viewer } from '../accounts.js';
import type { TaskCore } from './context.js';

// `query`: the relations the GraphQL selection needs (the payment), read with the row.
export async function get(ctx: TaskCore, viewer: Viewer, id: string, query: { include?: Prisma.TaskInclude } = {}): Promise<Task> {
  // The owner check needs the agent's ownerId; a query that also asks for the agent keeps its fields.
  const task = await ctx.deps.prisma.task.findUnique({ where: { id }, include: { ...query.include, agent: withOwnerId(query.include?.agent) } });
  if (!task) throw notFound('task');
  if (task.requesterId !== viewer.id && task.agent?.ownerId !== viewer.id) throw forbidden('not your task');
  return task;
}

export async function list(ctx: TaskCore, viewer: Viewer, opts: { role: 'requester' | 'agent'; status: TaskStatus | null; limit: number; cursor: string | null }) {
  const where: Prisma.TaskWhereInput = {
    ...(opts.role === 'requester' ? { requesterId: viewer.id } : { agent: { ownerId: viewer.id } }),
    ...(opts.status ? { status: opts.status } : {}),
  };
  let cursorId: string | null = null;
  if (opts.cursor) {
    cursorId = Buffer.from(opts.cursor, 'base64url').toString('utf8');
    if (!/^tsk_\w+$/.test(cursorId)) throw invalid('cursor', 'cursor is not valid');
  }
  const rows = await ctx.deps.prisma.task.findMany({
    // With its payment, which every REST answer shows: read with the page, not once per task.
    include: { payment: true },
    where: cursorId ? { AND: [where, { id: { lt: cursorId } }] } : where,
    // Ids begin with their creation time, so id order is creation order.
    orderBy: { id: 'desc' },
    take: opts.limit + 1,
  });
  const page = rows.slice(0, opts.limit);
  const nextCursor = rows.length > opts.limit ? Buffer.from(page.at(-1)!.id).toString('base64url') : null;
  return { tasks: page, nextCursor };
}

export async function loadForAgentOwner(ctx: TaskCore, viewer: Viewer, id: string): Promise<Task & { agent: { ownerId: string } | null }> {
  const task = await taskWithAgentOwner(ctx.deps.sql, id);
  if (!task) throw notFound('task');
  if (task.agent?.ownerId !== viewer.id) throw forbidden('only the owner of the assigned agent may do this');
  return task;
}

export async function loadForRequester(ctx: TaskCore, viewer: Viewer, id: string): Promise<Task> {
  const task = await findTask(ctx.deps.sql, id);
  if (!task) throw notFound('task');
  if (task.requesterId !== viewer.id) throw forbidden('only the requester may do this');
  return task;
}

// The agent as a task query includes it, with its ownerId besides (nothing else when not asked for).
function withOwnerId(agent: Prisma.TaskInclude['agent']): Prisma.TaskInclude['agent'] {
  if (!agent) return { select: { ownerId: true } };
  if (agent === true) return true;
  return agent.select ? { ...agent, select: { ...agent.select, ownerId: true } } : agent;
}
