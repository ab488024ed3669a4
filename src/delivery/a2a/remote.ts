// What an A2A agent said about its task, from any of the places it says it (the answer to SendMessage
// or GetTask, a push notification), in one shape the delivery applies to our task.
import { Message as MessageCodec, Task as TaskCodec, TaskState, taskStateFromJSON, type Message, type Part, type Task } from '@a2a-js/sdk';

export interface RemoteState {
  remoteTaskId: string;
  remoteContextId: string;
  state: TaskState;
  // The status message's text (why it failed, what input it needs).
  text: string | null;
  // The artifacts as wire JSON; null when the report did not carry them (a status update).
  artifacts: unknown[] | null;
}

const textOf = (parts: Part[] | undefined) =>
  (parts ?? [])
    .map((p) => (p.content?.$case === 'text' ? p.content.value : null))
    .filter((t): t is string => t !== null)
    .join('\n')
    .trim() || null;

export function fromTask(task: Task): RemoteState {
  const json = TaskCodec.toJSON(task) as { artifacts?: unknown[] };
  return {
    remoteTaskId: task.id,
    remoteContextId: task.contextId,
    state: task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED,
    text: textOf(task.status?.message?.parts),
    artifacts: json.artifacts ?? [],
  };
}

// A reply that is a Message, not a Task: the agent answered at once and keeps no task.
export function fromMessage(message: Message, ourTaskId: string): RemoteState {
  return {
    remoteTaskId: message.taskId || ourTaskId,
    remoteContextId: message.contextId,
    state: TaskState.TASK_STATE_COMPLETED,
    text: null,
    artifacts: [{ artifactId: message.messageId || 'message', name: 'message', parts: (MessageCodec.toJSON(message) as { parts?: unknown[] }).parts ?? [] }],
  };
}

// A push notification's body (a StreamResponse as JSON); null when it says nothing about a task's state.
export function fromPush(body: unknown): RemoteState | null {
  if (typeof body !== 'object' || body === null) return null;
  const push = body as Record<string, unknown>;
  if (typeof push.task === 'object' && push.task !== null) return fromTask(TaskCodec.fromJSON(push.task));
  const update = push.statusUpdate as { taskId?: unknown; contextId?: unknown; status?: { state?: unknown; message?: { parts?: unknown } } } | undefined;
  if (update && typeof update.taskId === 'string') {
    const parts = Array.isArray(update.status?.message?.parts) ? (update.status.message.parts as Array<{ text?: unknown }>) : [];
    const text = parts.map((p) => (typeof p.text === 'string' ? p.text : '')).join('\n').trim() || null;
    return {
      remoteTaskId: update.taskId,
      remoteContextId: typeof update.contextId === 'string' ? update.contextId : '',
      state: taskStateFromJSON(update.status?.state),
      text,
      artifacts: null,
    };
  }
  return null;
}

export const isWorking = (s: TaskState) => s === TaskState.TASK_STATE_SUBMITTED || s === TaskState.TASK_STATE_WORKING;
export const needsInput = (s: TaskState) => s === TaskState.TASK_STATE_INPUT_REQUIRED || s === TaskState.TASK_STATE_AUTH_REQUIRED;
export const isFinal = (s: TaskState) =>
  s === TaskState.TASK_STATE_COMPLETED || s === TaskState.TASK_STATE_FAILED || s === TaskState.TASK_STATE_REJECTED || s === TaskState.TASK_STATE_CANCELED;
