// What every A2A delivery function takes first: the dependencies, the task service (moves, tokens,
// callback URLs), the files (the agent's artifact parts kept), the task's input-file links, and what
// services/deliveries/ lends: its claim and its record of an attempt. Also the shapes they share and the
// scheduling of A2A's own calls.
import type { Deps } from '../../deps.js';
import type { SqlDb } from '../../db/kysely.js';
import type { WebhookResult } from '../../delivery/http-client.js';
import type { Agent, Delivery, Task } from '../../generated/prisma/client.js';
import { AppError } from '../../errors.js';
import { newId } from '../../ids.js';
import { deliverTask } from '../../jobs/specs/task-deliver.js';
import { insertDelivery } from '../../stores/delivery-store.js';
import { jobCall } from '../../stores/job-store.js';
import type { FileService } from '../files/index.js';
import type { TaskFiles } from '../task-files.js';
import type { TaskService } from '../tasks/index.js';

export const A2A_GET = 'a2a.get';
export const A2A_CANCEL = 'a2a.cancel';

export interface Claimed {
  deliveryId: string;
  number: number;
  taskId: string;
  agentId: string;
  expiresAt: Date;
}

// What services/deliveries/ lends this module: its claim and its record of an attempt (retries,
// give-up, health evidence, delivered/undeliverable moves).
export interface DeliveryMachinery {
  claimAttempt(deliveryId: string, jobId: string): Promise<number | null>;
  record(claimed: Claimed, result: WebhookResult, failure?: { error: string; final: boolean }): Promise<void>;
  retryLater(deliveryId: string): Promise<void>;
}

export interface A2AContext {
  deps: Deps;
  tasks: TaskService;
  files: FileService;
  inputFiles: TaskFiles;
  machinery: DeliveryMachinery;
}

// What one attempt needs of its delivery, task and agent (as services/deliveries/ read them).
export type SentTask = Pick<Task, 'id' | 'status' | 'title' | 'description' | 'input' | 'expiresAt' | 'priority' | 'tokenNonce'>;
export interface A2AAttempt {
  delivery: Pick<Delivery, 'id' | 'type' | 'payload'>;
  task: SentTask;
  agent: Pick<Agent, 'id' | 'endpoint' | 'a2aCard' | 'ownerId'>;
}

export const speaksA2A = (agent: Pick<Agent, 'protocols' | 'a2aCard'>) => agent.protocols.includes('a2a') && agent.a2aCard !== null;

export const pushSupported = (agent: Pick<Agent, 'a2aCard'>) => (agent.a2aCard as { capabilities?: { pushNotifications?: boolean } }).capabilities?.pushNotifications === true;

// A move the task's state no longer allows (a late or repeated report) is ignored.
export const ignoreConflict = (error: unknown) => {
  if (error instanceof AppError && (error.code === 'CONFLICT' || error.code === 'UNAUTHENTICATED')) return null;
  throw error;
};

// A call to the agent (`type`: a delivery type, A2A_GET or A2A_CANCEL) as a delivery of the task, with its job.
export async function schedule(ctx: A2AContext, t: SqlDb, task: Pick<Task, 'id' | 'agentId'>, type: string, runAt?: Date) {
  const deliveryId = newId('dlv');
  await insertDelivery(t, { id: deliveryId, taskId: task.id, agentId: task.agentId!, type, now: ctx.deps.clock.now() }, jobCall(deliverTask, { deliveryId }, runAt ? { runAt } : {}));
}
