// What the pull intake's functions work with: the dependencies, the task service (tokens, callback
// URLs), the task's file links, and what services/deliveries/ lends: its record of an attempt (the
// same retries, give-up, health and log as a webhook's) and its check of the agent's owner.
import type { Deps } from '../../deps.js';
import type { Viewer } from '../accounts/index.js';
import type { TaskService } from '../tasks/index.js';
import type { TaskFiles } from '../task-files.js';
import type { WebhookResult } from '../../delivery/http-client.js';
import type { Task } from '../../generated/prisma/client.js';

export interface LeaseClaimed {
  deliveryId: string;
  number: number;
  taskId: string;
  agentId: string;
  expiresAt: Date;
  task?: Pick<Task, 'status' | 'startedAt'>;
  lease: { holder: string; givenBack?: boolean };
}

export interface PullMachinery {
  record(claimed: LeaseClaimed, result: WebhookResult, failure?: { error: string; final: boolean }): Promise<void>;
  ownedAgent(viewer: Viewer, agentId: string): Promise<void>;
}

export interface PullContext {
  deps: Deps;
  tasks: TaskService;
  files: TaskFiles;
  machinery: PullMachinery;
}
