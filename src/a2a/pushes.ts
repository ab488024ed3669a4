// Push notifications to A2A clients (the marketplace as an A2A server): the configurations a client sets
// on its tasks (CreateTaskPushNotificationConfig, or with SendMessage), and the pushes themselves, one
// job per configuration after each change of the task, POSTed through the guarded request (address
// policy inside the lookup, no redirects, the delivery timeout) and retried by the job on failure. The
// body is a StreamResponse holding the task as it is; the client's credential goes as Authorization
// (its scheme and credentials) or X-A2A-Notification-Token (its token), and is kept encrypted.
import { Task as TaskCodec, type TaskPushNotificationConfig } from '@a2a-js/sdk';
import type { Deps } from '../deps.js';
import type { EventBus, TaskEvent } from '../events/bus.js';
import { guardedRequest } from '../delivery/guarded-request.js';
import { checkEndpointUrl } from '../delivery/url-guard.js';
import { invalid } from '../errors.js';
import { newId } from '../ids.js';
import { enqueue } from '../jobs/enqueue.js';
import { a2aPush } from '../jobs/specs/a2a-push.js';
import type { A2APushConfig, Task } from '../generated/prisma/client.js';
import { toA2ATask, type OurTask } from './mapping.js';

const MAX_CONFIGS_PER_TASK = 5;

function ourTaskOf(task: Task): OurTask {
  return { ...task, createdAt: task.createdAt.toISOString(), updatedAt: task.updatedAt.toISOString(), payment: null } as unknown as OurTask;
}

export function a2aPushService(deps: Deps) {
  const { prisma, secretBox, config, logger } = deps;

  const asConfig = (row: A2APushConfig): TaskPushNotificationConfig => ({
    tenant: '',
    id: row.configId,
    taskId: row.taskId,
    url: row.url,
    // The credential is the client's own; it is not shown back.
    token: '',
    authentication: row.authScheme ? { scheme: row.authScheme, credentials: '' } : undefined,
  });

  return {
    // The caller may see the task (checked by the adapter before this).
    async save(userId: string, taskId: string, cfg: TaskPushNotificationConfig): Promise<TaskPushNotificationConfig> {
      const check = await checkEndpointUrl(cfg.url, { allowPrivate: config.allowPrivateEndpoints });
      if (!check.ok) throw invalid('url', `url: ${check.reason}`);
      if (cfg.token.length > 4096 || (cfg.authentication?.credentials.length ?? 0) > 4096) throw invalid('token', 'the credential is longer than 4096 characters');
      const configId = cfg.id || newId('psh');
      const data = {
        url: cfg.url,
        tokenEnc: cfg.token ? secretBox.seal(cfg.token) : null,
        authScheme: cfg.authentication?.scheme ? cfg.authentication.scheme.slice(0, 64) : null,
        credentialsEnc: cfg.authentication?.credentials ? secretBox.seal(cfg.authentication.credentials) : null,
      };
      const others = await prisma.a2APushConfig.count({ where: { taskId, NOT: { configId } } });
      if (others >= MAX_CONFIGS_PER_TASK) throw invalid('id', `a task has at most ${MAX_CONFIGS_PER_TASK} push configurations`);
      const row = await prisma.a2APushConfig.upsert({
        where: { taskId_configId: { taskId, configId } },
        create: { id: newId('psh'), taskId, userId, configId, ...data },
        update: data,
      });
      return asConfig(row);
    },

    async get(taskId: string, configId: string): Promise<TaskPushNotificationConfig | null> {
      const row = await prisma.a2APushConfig.findUnique({ where: { taskId_configId: { taskId, configId } } });
      return row ? asConfig(row) : null;
    },

    async list(taskId: string): Promise<TaskPushNotificationConfig[]> {
      return (await prisma.a2APushConfig.findMany({ where: { taskId }, orderBy: { createdAt: 'asc' } })).map(asConfig);
    },

    async remove(taskId: string, configId: string): Promise<boolean> {
      const { count } = await prisma.a2APushConfig.deleteMany({ where: { taskId, configId } });
      return count > 0;
    },

    // After a change of a task: a push for each of its configurations.
    async taskChanged(taskId: string): Promise<void> {
      const rows = await prisma.a2APushConfig.findMany({ where: { taskId }, select: { id: true } });
      for (const { id } of rows) await enqueue(prisma, a2aPush, { pushId: id });
    },

    // Job: one push. Throws when the client did not take it, so the job is retried.
    async send(pushId: string): Promise<void> {
      const row = await prisma.a2APushConfig.findUnique({ where: { id: pushId } });
      if (!row) return;
      const task = await prisma.task.findUnique({ where: { id: row.taskId } });
      if (!task) return;
      const body = Buffer.from(JSON.stringify({ task: TaskCodec.toJSON(toA2ATask(ourTaskOf(task))) }));
      const headers: Record<string, string> = { 'content-type': 'application/a2a+json', 'user-agent': 'task-marketplace' };
      if (row.authScheme && row.credentialsEnc) headers.authorization = `${row.authScheme} ${secretBox.open(row.credentialsEnc)}`;
      else if (row.tokenEnc) headers['x-a2a-notification-token'] = secretBox.open(row.tokenEnc);
      const result = await guardedRequest({
        method: 'POST',
        url: row.url,
        headers,
        body,
        timeoutMs: config.deliveryTimeoutMs,
        maxResponseBytes: 64 * 1024,
        allowPrivate: config.allowPrivateEndpoints,
      });
      const ok = result.kind === 'response' && result.status >= 200 && result.status < 300;
      if (ok) return;
      const why = result.kind === 'response' ? `HTTP ${result.status}` : result.error;
      logger.warn({ pushId, taskId: row.taskId, why }, 'A2A push notification not taken; retrying');
      throw new Error(`push not taken: ${why}`);
    },
  };
}

export type A2APushService = ReturnType<typeof a2aPushService>;

// The bus, telling `listener` of each event this process publishes (after the commit that caused it).
export function notifying(bus: EventBus, listener: (event: TaskEvent) => void): EventBus {
  return {
    ...bus,
    publish: async (event) => {
      await bus.publish(event);
      listener(event);
    },
  };
}
