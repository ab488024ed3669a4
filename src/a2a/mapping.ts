// Our tasks as A2A tasks (the SDK's in-memory shapes; its codecs write the wire JSON), and an A2A
// message as the fields of POST /v1/tasks.
import { urlPart, type TaskFileLink } from './file-parts.js';
import { Role, Task as TaskCodec, TaskState, type Artifact, type Message, type Part, type Task } from '@a2a-js/sdk';
import { MARKETPLACE_EXTENSION } from './cards.js';
import { unhandledState, type TaskStatus } from '../lifecycle/task-lifecycle.js';

// A task as the REST documents select it (TaskFields).
export interface OurTask {
  id: string;
  status: TaskStatus;
  title: string;
  description: string;
  input: unknown;
  result: unknown;
  error: string | null;
  agentId: string | null;
  updatedAt: string;
  createdAt: string;
  payment?: { method: string; status: string; amountCents: number; autoCharged: boolean } | null;
  [field: string]: unknown;
}

// Every state of the lifecycle has its A2A state: a new one fails to compile here until it is given one.
export const A2A_STATES = {
  pending: TaskState.TASK_STATE_SUBMITTED,
  matched: TaskState.TASK_STATE_SUBMITTED,
  in_progress: TaskState.TASK_STATE_WORKING,
  input_required: TaskState.TASK_STATE_INPUT_REQUIRED,
  // A result waits for the requester to approve or reject it: the caller is asked.
  delivered: TaskState.TASK_STATE_INPUT_REQUIRED,
  disputed: TaskState.TASK_STATE_WORKING,
  refunded: TaskState.TASK_STATE_CANCELED,
  completed: TaskState.TASK_STATE_COMPLETED,
  failed: TaskState.TASK_STATE_FAILED,
  expired: TaskState.TASK_STATE_FAILED,
  cancelled: TaskState.TASK_STATE_CANCELED,
} as const satisfies Record<TaskStatus, TaskState>;

// For ListTasks' status filter: the one of our states an A2A state stands for, where there is one.
export const OUR_STATUS: Partial<Record<TaskState, TaskStatus>> = {
  [TaskState.TASK_STATE_SUBMITTED]: 'pending',
  [TaskState.TASK_STATE_WORKING]: 'in_progress',
  [TaskState.TASK_STATE_INPUT_REQUIRED]: 'input_required',
  [TaskState.TASK_STATE_COMPLETED]: 'completed',
  [TaskState.TASK_STATE_FAILED]: 'failed',
  [TaskState.TASK_STATE_CANCELED]: 'cancelled',
};

export const stateOf = (status: TaskStatus): TaskState => A2A_STATES[status];

const TERMINAL = new Set([TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_FAILED, TaskState.TASK_STATE_CANCELED, TaskState.TASK_STATE_REJECTED]);
const INTERRUPTED = new Set([TaskState.TASK_STATE_INPUT_REQUIRED, TaskState.TASK_STATE_AUTH_REQUIRED]);
export const isTerminal = (state: TaskState) => TERMINAL.has(state);
// Where a blocking send or a stream stops: the task is done, or waits for the caller.
export const isSettled = (state: TaskState) => TERMINAL.has(state) || INTERRUPTED.has(state);

export const textPart = (text: string): Part => ({ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' });
export const dataPart = (data: unknown): Part => ({ content: { $case: 'data', value: data }, metadata: undefined, filename: '', mediaType: 'application/json' });

function agentMessage(task: OurTask, text: string): Message {
  return {
    messageId: `${task.id}:${task.status}`,
    contextId: task.id,
    taskId: task.id,
    role: Role.ROLE_AGENT,
    parts: [textPart(text)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

function statusMessage(task: OurTask): Message | undefined {
  switch (task.status) {
    case 'failed':
      return agentMessage(task, task.error ?? 'failed');
    case 'expired':
      return agentMessage(task, 'the task expired before it finished');
    case 'input_required': {
      const request = task.inputRequest as { message?: unknown } | null | undefined;
      return agentMessage(task, typeof request?.message === 'string' ? request.message : 'the agent needs more input');
    }
    case 'delivered':
      return agentMessage(task, 'the result is ready: approve it (POST /v1/tasks/{id}/approve) or reject it with a reason (POST /v1/tasks/{id}/reject)');
    case 'refunded':
      return agentMessage(task, 'the task was refunded after a dispute');
    // The A2A state says all there is to say.
    case 'pending':
    case 'matched':
    case 'in_progress':
    case 'disputed':
    case 'completed':
    case 'cancelled':
      return undefined;
    default:
      return unhandledState(task.status);
  }
}

// A result that came from an A2A agent ({artifacts: [...]}, delivery/a2a) is passed on as those artifacts;
// the file parts kept as our files ({"$file": id, …}) go out as url parts to them (a file no longer kept
// is left out).
function relayedArtifacts(result: unknown, links: TaskFileLink[]): Artifact[] | null {
  const artifacts = (result as { artifacts?: unknown } | null)?.artifacts;
  if (!Array.isArray(artifacts) || !artifacts.every((a) => typeof a === 'object' && a !== null && Array.isArray((a as { parts?: unknown }).parts))) return null;
  const byId = new Map(links.map((link) => [link.id, link]));
  const wire = (artifacts as Array<{ parts: unknown[] }>).map((artifact) => ({
    ...artifact,
    parts: artifact.parts.flatMap((part) => {
      const id = (part as { $file?: unknown } | null)?.$file;
      if (typeof id !== 'string') return [part];
      const link = byId.get(id);
      const { $file: _file, ...rest } = part as Record<string, unknown>;
      return link ? [{ ...rest, url: link.url, filename: link.filename, mediaType: link.mediaType }] : [];
    }),
  }));
  return TaskCodec.fromJSON({ id: '', contextId: '', artifacts: wire }).artifacts;
}

export function resultArtifacts(task: OurTask): Artifact[] {
  if (!['completed', 'delivered'].includes(task.status) || task.result === null || task.result === undefined) return [];
  // The files the result refers to (a2a/file-parts.ts), as url parts.
  const links = (task as { resultFileLinks?: TaskFileLink[] }).resultFileLinks ?? [];
  const relayed = relayedArtifacts(task.result, links);
  if (relayed) return relayed;
  // The service's signed receipt of the finished task (docs/receipts.md) travels with its result.
  const receipt = typeof task.receipt === 'string' ? { receipt: task.receipt } : undefined;
  const result: Artifact = { artifactId: `${task.id}-result`, name: 'result', description: 'The agent’s result', parts: [dataPart(task.result)], metadata: receipt, extensions: [] };
  if (links.length === 0) return [result];
  return [result, { artifactId: `${task.id}-files`, name: 'files', description: 'The files of the result', parts: links.map(urlPart), metadata: undefined, extensions: [] }];
}

export function toA2ATask(task: OurTask): Task {
  return {
    id: task.id,
    // Each task is its own context: the marketplace has no conversations spanning tasks.
    contextId: task.id,
    status: { state: stateOf(task.status), message: statusMessage(task), timestamp: task.updatedAt },
    artifacts: resultArtifacts(task),
    history: [],
    metadata: {
      [MARKETPLACE_EXTENSION]: {
        status: task.status,
        title: task.title,
        agentId: task.agentId,
        ...(task.payment ? { payment: task.payment } : {}),
        ...(typeof task.receipt === 'string' ? { receipt: task.receipt } : {}),
      },
    },
  };
}

// Routing and task fields a message's metadata may carry (those of POST /v1/tasks).
const METADATA_FIELDS = ['capabilities', 'protocols', 'maxPriceCents', 'agentId', 'priority', 'expiresInMinutes', 'title'] as const;

// A short, one-line account of a value (for a title made from a data part).
function summaryOf(value: unknown, max: number): string {
  const json = JSON.stringify(value) ?? String(value);
  return json.length > max ? `${json.slice(0, max - 1)}…` : json;
}

// The text parts are the description (its first line, cut to 200 characters, the title unless
// metadata.title is given); the first data part is the input. A message with data and no text (valid
// A2A) gets both made from what it carries: `subject` (the agent's skill, where known) and a short
// summary of the data, or the names of its files.
export function taskInputOf(message: Message, metadata: Record<string, unknown> | undefined, subject?: string): Record<string, unknown> {
  const texts: string[] = [];
  const files: string[] = [];
  let input: unknown;
  for (const part of message.parts) {
    if (part.content?.$case === 'text') texts.push(part.content.value);
    else if (part.content?.$case === 'data' && input === undefined) input = part.content.value;
    else if (part.content?.$case === 'url' || part.content?.$case === 'raw') files.push(part.filename || (part.content.$case === 'url' ? part.content.value : 'a file'));
  }
  let description = texts.join('\n\n').trim();
  let title = description.split('\n')[0]!.slice(0, 200).trim();
  if (!description && (input !== undefined || files.length > 0)) {
    const carried = input !== undefined ? summaryOf(input, 120) : files.join(', ').slice(0, 120);
    title = `${subject || (input !== undefined ? 'Structured input' : 'Files')}: ${carried}`.slice(0, 200);
    description = input !== undefined ? `Sent as structured data (the task's input): ${summaryOf(input, 2000)}` : `Sent as files: ${files.join(', ').slice(0, 2000)}`;
  }
  const body: Record<string, unknown> = { title, description, ...(input !== undefined ? { input } : {}) };
  const extra = { ...message.metadata, ...metadata };
  for (const field of METADATA_FIELDS) if (extra[field] !== undefined) body[field] = extra[field];
  return body;
}
