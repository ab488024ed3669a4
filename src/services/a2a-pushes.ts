// Push notifications to A2A clients (the marketplace as an A2A server): the configurations a client sets
// on its tasks (CreateTaskPushNotificationConfig, or with SendMessage), and the pushes themselves. Each
// configuration has one job that looks at its task, pushes it when it changed, and comes back after a
// while (sooner after a change, later while nothing happens) until the task's end has been pushed: the
// work is paid by tasks that have configurations only, and a job survives a crash. Pushes are POSTed
// through the guarded request (address policy inside the lookup, no redirects, the delivery timeout)
// and retried by the job on failure. The body is a StreamResponse holding the task as it is; the
// client's credential goes as Authorization (its scheme and credentials) or X-A2A-Notification-Token
// (its token), and is kept encrypted. How the task is written for A2A is the A2A adapter's (a2a/push-body.ts),
// given by the composition root: this service knows the push, not the wire format.
import type { TaskPushNotificationConfig } from '@a2a-js/sdk';
import type { Deps } from '../deps.js';
import { guardedRequest } from '../delivery/guarded-request.js';
import { judgeAttempt } from '../delivery/attempt-verdict.js';
import { checkEndpointUrl } from '../delivery/url-guard.js';
import { invalid } from '../errors.js';
import { newId } from '../ids.js';
import { withTransaction } from '../db/transaction.js';
import { enqueue, jobCall } from '../stores/job-store.js';
import { configById, configOf, configsOf, deleteConfig, otherConfigCount, recordLook, saveConfig, type PushConfigRow } from '../stores/a2a-push-store.js';
import { findTask } from '../stores/task-store.js';
import { a2aPush } from '../jobs/specs/a2a-push.js';
import type { Task } from '../generated/prisma/client.js';
import { isTerminal } from '../lifecycle/task-lifecycle.js';

const MAX_CONFIGS_PER_TASK = 5;
// Looks at a task with push configurations: 1 s after a change, doubling while nothing changes, at most a minute apart.
const LOOK_FIRST_MS = 1_000;
const LOOK_MAX_MS = 60_000;

// The body of a push: the task as A2A writes it (a StreamResponse).
export type PushBody = (task: Task) => Buffer;

export function a2aPushService(deps: Deps, pushBody: PushBody) {
  const { secretBox, config, logger } = deps;

  async function post(row: PushConfigRow, task: Task): Promise<void> {
    const body = pushBody(task);
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
      resolve: deps.resolveHost,
    });
    const verdict = judgeAttempt(result);
    if (verdict.taken) return;
    const why = verdict.error;
    logger.warn({ pushId: row.id, taskId: row.taskId, why }, 'A2A push notification not taken; retrying');
    throw new Error(`push not taken: ${why}`);
  }

  const asConfig = (row: PushConfigRow): TaskPushNotificationConfig => ({
    tenant: '',
    id: row.configId,
    taskId: row.taskId,
    url: row.url,
    // The credential is the client's own; it is not shown back.
    token: '',
    authentication: row.authScheme ? { scheme: row.authScheme, credentials: '' } : undefined,
  });

  return {
    // The caller may see the task (checked by the adapter before this). A configuration belongs to the
    // user who made it: the same id from another user of the task (its agent's owner) is another
    // configuration, and only its maker sees, changes or removes it.
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
      const others = await otherConfigCount(deps.sql, { taskId, userId, configId });
      if (others >= MAX_CONFIGS_PER_TASK) throw invalid('id', `a task has at most ${MAX_CONFIGS_PER_TASK} push configurations of yours`);
      const row = await withTransaction(deps.sql, async (t) => {
        const saved = await saveConfig(t, { id: newId('psh'), taskId, userId, configId }, data);
        await enqueue(t, a2aPush, { pushId: saved.id });
        return saved;
      });
      return asConfig(row);
    },

    async get(userId: string, taskId: string, configId: string): Promise<TaskPushNotificationConfig | null> {
      const row = await configOf(deps.sql, { taskId, userId, configId });
      return row ? asConfig(row) : null;
    },

    async list(userId: string, taskId: string): Promise<TaskPushNotificationConfig[]> {
      return (await configsOf(deps.sql, taskId, userId)).map(asConfig);
    },

    async remove(userId: string, taskId: string, configId: string): Promise<boolean> {
      return deleteConfig(deps.sql, { taskId, userId, configId });
    },

    // Job: looks at the task; pushes it when it changed since the last push (throws when the client did
    // not take it, so the job is retried); comes back later unless the task's end was pushed.
    async send(pushId: string): Promise<void> {
      const row = await configById(deps.sql, pushId);
      if (!row) return;
      const task = await findTask(deps.sql, row.taskId);
      if (!task) return;
      const state = `${task.status}@${task.updatedAt.toISOString()}`;
      const changed = state !== row.lastPushed;
      if (changed) await post(row, task);
      if (changed && isTerminal(task.status)) {
        await recordLook(deps.sql, pushId, { lastPushed: state }, null);
        return;
      }
      const idleRounds = changed ? 0 : row.idleRounds + 1;
      const nextLook = new Date(deps.clock.now().getTime() + Math.min(LOOK_FIRST_MS * 2 ** idleRounds, LOOK_MAX_MS));
      await recordLook(deps.sql, pushId, { lastPushed: state, idleRounds }, jobCall(a2aPush, { pushId }, { runAt: nextLook }));
    },
  };
}

export type A2APushService = ReturnType<typeof a2aPushService>;

