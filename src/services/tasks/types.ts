// What the task service hands out and what it is given to call back into.
import type { RawBuilder } from 'kysely';
import type { SqlTx } from '../../db/kysely.js';
import type { Payment, Task } from '../../generated/prisma/client.js';
import type { CardAuthorization } from '../payments/index.js';

// A task with its payment (null: none yet).
export type TaskWithPayment = Task & { payment: Payment | null };

// A new task (or the one an earlier request with the same key made) and its card hold, if any.
export interface CreatedTask {
  taskId: string;
  authorization: CardAuthorization | null;
  // The task with its payment as the request left them, when that is known without reading them back (a
  // card hold changes the payment after the task was written: then it is read).
  task: TaskWithPayment | null;
}

export interface TaskHooks {
  // The jobs a finished task of the agent queues (the agent's recount), added by the finishing move's
  // own statement.
  finishedJobs(agentId: string): RawBuilder<unknown>[];
  // Inside the transaction that cancelled the task (an A2A agent is told).
  taskCancelled(tx: SqlTx, task: Task): Promise<void>;
}
