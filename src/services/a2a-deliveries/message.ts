// The SendMessage request of a delivery: task.assigned sends messageId = our task id (a retried send is
// the same message), the task's title and description as text, its input as data and its input files as
// url parts, with a push configuration pointing at the task's callback URL with the task token;
// task.input sends the requester's answer as a new message with the agent's taskId.
import { Role, type Message, type Part, type SendMessageRequest } from '@a2a-js/sdk';
import type { DeliveredFile } from '../../delivery/payload.js';
import type { Agent, Delivery } from '../../generated/prisma/client.js';
import { pushSupported, type A2AContext, type SentTask } from './context.js';

const text = (value: string): Part => ({ content: { $case: 'text', value }, metadata: undefined, filename: '', mediaType: 'text/plain' });
const data = (value: unknown): Part => ({ content: { $case: 'data', value }, metadata: undefined, filename: '', mediaType: 'application/json' });
// An input file as the webhook payload's `files` entry has it: the signed link, and in the metadata the
// id the input's {"$file": …} names, with the size and hash to check the download against.
const filePart = (file: DeliveredFile): Part => ({
  content: { $case: 'url', value: file.url },
  metadata: { fileId: file.id, size: file.size, sha256: file.sha256 },
  filename: file.filename,
  mediaType: file.mediaType,
});

export function sendRequest(
  ctx: A2AContext,
  task: SentTask,
  delivery: Pick<Delivery, 'type' | 'payload'>,
  agent: Pick<Agent, 'a2aCard'>,
  link: { remoteTaskId: string; remoteContextId: string } | null,
  token: string,
  fileLinks: DeliveredFile[] | null,
): SendMessageRequest {
  const isInput = delivery.type === 'task.input';
  const answer = delivery.payload as { input?: unknown; round?: number } | null;
  const message: Message = {
    // The same id on every retry of this delivery, so the agent can tell a repeat from a new message.
    messageId: isInput ? `${task.id}-input-${answer?.round ?? 0}` : task.id,
    contextId: isInput ? (link?.remoteContextId ?? '') : '',
    taskId: isInput ? (link?.remoteTaskId ?? '') : '',
    role: Role.ROLE_USER,
    parts: isInput
      ? [data(answer?.input ?? {})]
      : [text(`${task.title}\n\n${task.description}`), ...(task.input !== null ? [data(task.input)] : []), ...(fileLinks ?? []).map(filePart)],
    metadata: { marketplaceTaskId: task.id, ...(isInput ? { round: answer?.round ?? 0 } : { expiresAt: task.expiresAt.toISOString(), priority: task.priority }) },
    extensions: [],
    referenceTaskIds: [],
  };
  const push = pushSupported(agent)
    ? { tenant: '', id: task.id, taskId: '', url: ctx.tasks.callbackUrl(task.id), token, authentication: { scheme: 'Bearer', credentials: token } }
    : undefined;
  return { tenant: '', message, configuration: { acceptedOutputModes: [], taskPushNotificationConfig: push, returnImmediately: true }, metadata: undefined };
}
