// The body of an A2A push notification (services/a2a-pushes.ts): a StreamResponse holding the task as it
// is, in A2A's own JSON form.
import { Task as TaskCodec } from '@a2a-js/sdk';
import type { Task } from '../generated/prisma/client.js';
import { toA2ATask, type OurTask } from './mapping.js';

function ourTaskOf(task: Task): OurTask {
  return { ...task, createdAt: task.createdAt.toISOString(), updatedAt: task.updatedAt.toISOString(), payment: null } as unknown as OurTask;
}

export const a2aPushBody = (task: Task): Buffer => Buffer.from(JSON.stringify({ task: TaskCodec.toJSON(toA2ATask(ourTaskOf(task))) }));
