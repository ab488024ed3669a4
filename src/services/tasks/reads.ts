// Reading tasks: one for a party of it, a page of a requester's or an agent owner's, and the checks of
// who may move a task.
import type { Task, TaskStatus } from '../../generated/prisma/client.js';
import { forbidden, invalid, notFound } from '../../errors.js';
import { findTask, taskPage, taskWithAgentOwner } from '../../stores/task-store.js';
import type { Viewer } from '../accounts/index.js';
import type { TaskCore } from './context.js';

// The task, if the viewer is a party of it: its requester or the owner of its agent. 404, 403 otherwise.
export function mustBeParty<T extends { requesterId: string; agent: { ownerId: string } | null }>(viewer: Viewer, task: T | null): T {
  if (!task) throw notFound('task');
  if (task.requesterId !== viewer.id && task.agent?.ownerId !== viewer.id) throw forbidden('not your task');
  return task;
}

export async function get(ctx: TaskCore, viewer: Viewer, id: string): Promise<Task> {
  return mustBeParty(viewer, await taskWithAgentOwner(ctx.deps.sql, id));
}

export async function list(ctx: TaskCore, viewer: Viewer, opts: { role: 'requester' | 'agent'; status: TaskStatus | null; limit: number; cursor: string | null }) {
  let cursorId: string | null = null;
  if (opts.cursor) {
    cursorId = Buffer.from(opts.cursor, 'base64url').toString('utf8');
    if (!/^tsk_\w+$/.test(cursorId)) throw invalid('cursor', 'cursor is not valid');
  }
  const rows = await taskPage(ctx.deps.sql, { role: opts.role, userId: viewer.id, status: opts.status, beforeId: cursorId, take: opts.limit + 1 });
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
