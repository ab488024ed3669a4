// The marketplace's A2A request handler (the SDK's A2ARequestHandler, behind its JSON-RPC transport
// handler): each method runs a /v1 route as the caller, so validation, payment and permissions are
// REST's, and our task states are mapped onto A2A's (a2a/mapping.ts). One handler per request: it
// holds the caller and, at /a2a/agents/{slug}, the agent every message goes to.
import type {
  AgentCard,
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetExtendedAgentCardRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  Message,
  SendMessageRequest,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
} from '@a2a-js/sdk';
import {
  A2AError,
  RequestMalformedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';
import type { A2ARequestHandler } from '@a2a-js/sdk/server';
import type { Logger } from '../logger.js';
import { AppError } from '../errors.js';
import type { A2APushService } from './pushes.js';
import type { RouteExecutor, RouteOutcome } from '../rest/runner.js';
import type { Route } from '../rest/route.js';
import { operations } from '../rest/routes/operations.js';
import type { Context } from '../schema/context.js';
import { filePartsIntoInput, withResultFileLinks } from '../files/a2a-files.js';
import { isSettled, isTerminal, OUR_STATUS, resultArtifacts, stateOf, taskInputOf, toA2ATask, type OurTask } from './mapping.js';
import { FollowError, type FollowTask } from './updates.js';
import { ScopeRefusal } from './scope-refusal.js';

type RouteError = Extract<RouteOutcome, { error: unknown }>['error'];

export interface A2AHandlerOptions {
  execute: RouteExecutor;
  follow: FollowTask;
  context: Context;
  card: AgentCard;
  // At /a2a/agents/{slug}: the agent's id.
  agentId: string | null;
  base: string;
  // How long a blocking SendMessage waits for the task to settle before answering it as it is, and a
  // signal that ends the wait early (the caller left, or its credential ended).
  blockingWaitMs: number;
  waitSignal?: AbortSignal;
  pushes: A2APushService;
  logger: Logger;
}

const metadataString = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

// A REST error as the A2A error that says the same; `about` tells what the request was about.
function a2aError(error: RouteError, about: 'task' | 'send' | 'cancel'): A2AError {
  const metadata: Record<string, string> = { code: error.code };
  if (error.field) metadata.field = error.field;
  for (const [key, value] of Object.entries(error.details ?? {})) metadata[key] = metadataString(value);
  switch (error.code) {
    case 'INSUFFICIENT_SCOPE':
      return new ScopeRefusal(error.message, String(error.details?.scope ?? ''));
    case 'INVALID_INPUT':
      return new RequestMalformedError({ message: error.field ? `${error.field}: ${error.message}` : error.message, metadata });
    case 'NOT_FOUND':
    case 'FORBIDDEN':
      if (about !== 'send') return new TaskNotFoundError({ message: 'task not found', metadata: { code: 'NOT_FOUND' } });
      return new RequestMalformedError({ message: error.message, metadata });
    case 'CONFLICT':
      if (about === 'cancel') return new TaskNotCancelableError({ message: error.message, metadata });
      return new UnsupportedOperationError({ message: error.message, metadata });
    case 'PAYMENT_REQUIRED':
      return new UnsupportedOperationError({ message: error.message, metadata });
    default:
      return new A2AError({ message: error.message, metadata });
  }
}

const ROUTING_FIELDS = ['capabilities', 'protocols', 'maxPriceCents', 'agentId', 'priority', 'expiresInMinutes', 'title'];

export class MarketplaceA2AHandler implements A2ARequestHandler {
  constructor(private readonly opts: A2AHandlerOptions) {}

  private get viewerId(): string {
    return this.opts.context.viewer!.id;
  }

  async getAgentCard(): Promise<AgentCard> {
    return this.opts.card;
  }

  getAuthenticatedExtendedAgentCard(_params: GetExtendedAgentCardRequest): Promise<AgentCard> {
    return Promise.reject(new UnsupportedOperationError('this card has no extended version'));
  }

  // The scope refusal this request ended with, if any: the SDK answers errors it does not know as
  // "Internal error", so the route answers this one itself (a2a/scope-refusal.ts).
  refusal: ScopeRefusal | null = null;

  private refuse(error: A2AError): A2AError {
    if (error instanceof ScopeRefusal) this.refusal = error;
    return error;
  }

  private async run(route: Route, req: Parameters<RouteExecutor>[1], about: 'task' | 'send' | 'cancel'): Promise<Record<string, unknown>> {
    const outcome = await this.opts.execute(route, req, this.opts.context);
    if ('error' in outcome) throw this.refuse(a2aError(outcome.error, about));
    await withResultFileLinks(outcome.body as Record<string, unknown>, this.opts.context);
    return outcome.body as Record<string, unknown>;
  }

  private async ourTask(id: string): Promise<OurTask> {
    if (!id.trim()) throw new RequestMalformedError('the task id is missing');
    const body = await this.run(operations.getTask, { params: { id } }, 'task');
    return body.data as OurTask;
  }

  // Creates the task a message asks for; a repeated messageId answers the task it made (Idempotency-Key).
  private async create(params: SendMessageRequest): Promise<OurTask> {
    const message = params.message;
    if (!message) throw new RequestMalformedError('params.message is required');
    if (!message.messageId) throw new RequestMalformedError('message.messageId is required');
    if (message.taskId) {
      const task = await this.ourTask(message.taskId);
      if (message.contextId && message.contextId !== task.id) throw new RequestMalformedError('message.contextId does not match the task’s contextId');
      if (isTerminal(stateOf(task.status))) throw new UnsupportedOperationError(`the task is ${task.status} and takes no more messages`);
      if (task.status !== 'input_required') throw new UnsupportedOperationError(`the task is ${task.status}; it does not wait for input`);
      // The answer to the agent's question: its data part, or its text as {text}.
      const { input, description } = taskInputOf(message, undefined);
      const answer = input !== undefined ? input : { text: description };
      const body = await this.run(operations.provideTaskInput, { params: { id: task.id }, body: { input: answer } }, 'send');
      return body.data as OurTask;
    }
    if (!message.parts.some((part) => part.content !== undefined)) {
      throw new RequestMalformedError('message.parts: send a text part (the task’s description) or a data part (its input)');
    }
    // At an agent's URL its skill names what a message of data alone is about.
    const body = taskInputOf(message, params.metadata, this.opts.agentId ? this.opts.card.skills[0]?.name : undefined);
    if (this.opts.agentId) {
      for (const field of ROUTING_FIELDS) if (field !== 'title' && field !== 'expiresInMinutes' && field !== 'priority') delete body[field];
      body.agentId = this.opts.agentId;
    }
    await filePartsIntoInput(message, body, this.opts.context);
    const created = await this.run(operations.createTask, { body, headers: { 'idempotency-key': `a2a:${message.messageId}` } }, 'send');
    const task = created.data as OurTask;
    const push = params.configuration?.taskPushNotificationConfig;
    if (push?.url && typeof created.clientSecret !== 'string') await this.savePush(task.id, push);
    if (typeof created.clientSecret === 'string') {
      // A card hold that only the requester can confirm with the processor: A2A has no way to ask for it.
      await this.opts.execute(operations.cancelTask, { params: { id: task.id } }, this.opts.context).catch(() => undefined);
      throw new UnsupportedOperationError({
        message: `this agent charges ${task.payment?.amountCents ?? 0} cents a task: buy credits for it (POST ${this.opts.base}/v1/credits) or save a card (POST ${this.opts.base}/v1/billing/setup-intent), then send again with a new messageId`,
        metadata: { code: 'PAYMENT_REQUIRED', taskId: task.id, buyCredits: `${this.opts.base}/v1/credits`, saveCard: `${this.opts.base}/v1/billing/setup-intent` },
      });
    }
    return task;
  }

  async sendMessage(params: SendMessageRequest): Promise<Message | Task> {
    return this.guard(async () => {
      let task = await this.create(params);
      if (!params.configuration?.returnImmediately && !isSettled(stateOf(task.status))) task = await this.settled(task);
      return toA2ATask(task);
    });
  }

  // Waits until the task is terminal or waits for input, or blockingWaitMs passes: the task as it is then.
  // The deadline races the next change, since a subscription waiting for one does not stop on its own.
  private async settled(task: OurTask): Promise<OurTask> {
    const abort = new AbortController();
    const changes = this.opts.follow(task.id, this.opts.context, abort.signal);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'deadline'>((resolve) => {
      timer = setTimeout(() => resolve('deadline'), this.opts.blockingWaitMs);
      this.opts.waitSignal?.addEventListener('abort', () => resolve('deadline'), { once: true });
    });
    let last = task;
    try {
      for (;;) {
        const next = await Promise.race([changes.next(), deadline]);
        if (next === 'deadline' || next.done) break;
        last = next.value;
        if (isSettled(stateOf(last.status))) break;
      }
    } catch (error) {
      if (!(error instanceof FollowError)) throw error;
    } finally {
      clearTimeout(timer);
      abort.abort();
      void changes.return(undefined).catch(() => undefined);
    }
    return last;
  }

  async *sendMessageStream(params: SendMessageRequest): AsyncGenerator<StreamResponse, void, undefined> {
    const task = await this.guard(() => this.create(params));
    yield* this.stream(task.id, true);
  }

  async *resubscribe(params: SubscribeToTaskRequest): AsyncGenerator<StreamResponse, void, undefined> {
    const task = await this.guard(() => this.ourTask(params.id));
    if (isTerminal(stateOf(task.status))) throw new UnsupportedOperationError(`the task is ${task.status}; there is nothing more to stream`);
    yield* this.stream(task.id, false);
  }

  // The task first, then a status update per change (the result as an artifact before COMPLETED),
  // until it is terminal or waits for input.
  private async *stream(id: string, stopWhenInterrupted: boolean): AsyncGenerator<StreamResponse> {
    const abort = new AbortController();
    let first = true;
    let lastStatus = '';
    try {
      for await (const now of this.opts.follow(id, this.opts.context, abort.signal)) {
        const state = stateOf(now.status);
        if (first) {
          first = false;
          lastStatus = now.status;
          yield { payload: { $case: 'task', value: toA2ATask(now) } };
        } else if (now.status !== lastStatus) {
          lastStatus = now.status;
          const a2a = toA2ATask(now);
          for (const artifact of resultArtifacts(now)) {
            yield { payload: { $case: 'artifactUpdate', value: { taskId: id, contextId: id, artifact, append: false, lastChunk: true, metadata: undefined } } };
          }
          yield { payload: { $case: 'statusUpdate', value: { taskId: id, contextId: id, status: a2a.status, metadata: a2a.metadata } } };
        }
        if (isTerminal(state) || (stopWhenInterrupted && isSettled(state))) return;
      }
    } catch (error) {
      if (error instanceof FollowError) throw new TaskNotFoundError('task not found');
      throw error;
    } finally {
      abort.abort();
    }
  }

  async getTask(params: GetTaskRequest): Promise<Task> {
    return this.guard(async () => toA2ATask(await this.ourTask(params.id)));
  }

  async listTasks(params: ListTasksRequest): Promise<ListTasksResponse> {
    return this.guard(async () => {
      const query = new URLSearchParams({ role: 'requester' });
      const pageSize = Math.min(Math.max(params.pageSize ?? 50, 1), 100);
      query.set('limit', String(pageSize));
      if (params.pageToken) query.set('cursor', params.pageToken);
      // Own keys only: a status named `constructor` is no status.
      const status = Object.hasOwn(OUR_STATUS, String(params.status)) ? OUR_STATUS[params.status] : undefined;
      if (status) query.set('status', status);
      const body = await this.run(operations.listTasks, { query }, 'task');
      let tasks = (body.data as OurTask[]).map(toA2ATask);
      if (params.contextId) tasks = tasks.filter((t) => t.contextId === params.contextId);
      if (params.includeArtifacts === false) tasks = tasks.map((t) => ({ ...t, artifacts: [] }));
      return { tasks, nextPageToken: (body.nextCursor as string | null) ?? '', pageSize, totalSize: tasks.length };
    });
  }

  async cancelTask(params: CancelTaskRequest): Promise<Task> {
    return this.guard(async () => {
      if (!params.id.trim()) throw new RequestMalformedError('the task id is missing');
      const task = await this.ourTask(params.id);
      if (isTerminal(stateOf(task.status))) throw new TaskNotCancelableError(`the task is ${task.status}`);
      const body = await this.run(operations.cancelTask, { params: { id: params.id } }, 'cancel');
      return toA2ATask(body.data as OurTask);
    });
  }

  // Push configurations are set on tasks the caller may see (GetTask decides), and belong to the caller:
  // the agent's owner neither sees nor replaces the requester's, even under the same id.
  async createTaskPushNotificationConfig(params: TaskPushNotificationConfig): Promise<TaskPushNotificationConfig> {
    return this.guard(async () => {
      const task = await this.ourTask(params.taskId);
      return this.savePush(task.id, params);
    });
  }

  private async savePush(taskId: string, config: TaskPushNotificationConfig): Promise<TaskPushNotificationConfig> {
    try {
      return await this.opts.pushes.save(this.viewerId, taskId, { ...config, taskId });
    } catch (error) {
      if (error instanceof AppError) throw this.refuse(a2aError({ code: error.code, message: error.message, field: error.field, details: error.extensions }, 'send'));
      throw error;
    }
  }

  async getTaskPushNotificationConfig(params: GetTaskPushNotificationConfigRequest): Promise<TaskPushNotificationConfig> {
    return this.guard(async () => {
      const task = await this.ourTask(params.taskId);
      const config = await this.opts.pushes.get(this.viewerId, task.id, params.id);
      if (!config) throw new TaskNotFoundError({ message: 'no such push notification configuration for this task' });
      return config;
    });
  }

  async listTaskPushNotificationConfigs(params: ListTaskPushNotificationConfigsRequest): Promise<ListTaskPushNotificationConfigsResponse> {
    return this.guard(async () => {
      const task = await this.ourTask(params.taskId);
      return { configs: await this.opts.pushes.list(this.viewerId, task.id), nextPageToken: '' };
    });
  }

  async deleteTaskPushNotificationConfig(params: DeleteTaskPushNotificationConfigRequest): Promise<void> {
    return this.guard(async () => {
      const task = await this.ourTask(params.taskId);
      if (!(await this.opts.pushes.remove(this.viewerId, task.id, params.id))) throw new TaskNotFoundError({ message: 'no such push notification configuration for this task' });
    });
  }

  // A2A errors pass; anything else is logged and answered as an internal error without its details.
  private async guard<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof A2AError) throw error;
      this.opts.logger.error({ err: error }, 'A2A request failed');
      throw new A2AError('internal error');
    }
  }
}
