// The body and headers of a task delivery.
//
// serializePayload produces the bytes that are both signed and sent; callers
// must pass those same bytes to deliveryHeaders and to the HTTP client and
// never re-serialise, or signatures stop matching.

import { signServiceSignature, standardWebhookHeaders } from './signing.js';

/** The task fields a delivery needs, typed structurally so any task record fits. */
export type DeliverableTask = {
  id: string;
  title: string;
  description: string;
  input: unknown;
  capabilities: string[];
  priority: string;
  expiresAt: Date;
  inputHash: string | null;
};

/** The spec's "Task delivery payload": exactly these fields. */
export type DeliveryPayload = {
  taskId: string;
  taskToken: string;
  title: string;
  description: string;
  input: Record<string, unknown>;
  callbackUrl: string;
  capabilities: string[];
  priority: string;
  expiresAt: string;
  // SHA-256 of the canonical JSON of the input, as the task records it (evidence of what was asked).
  inputHash: string | null;
  // The files the input refers to, with signed links (docs/files.md); only when there are some.
  files?: DeliveredFile[];
};

export type DeliveredFile = { id: string; filename: string; mediaType: string; size: number; sha256: string; url: string };

/** The requester's answer to an input request, delivered as type task.input. */
export type InputDeliveryPayload = {
  type: 'task.input';
  taskId: string;
  taskToken: string;
  round: number;
  input: Record<string, unknown>;
  inputHash: string | null;
  callbackUrl: string;
  expiresAt: string;
};

export const DELIVERY_USER_AGENT = 'Service/1.0';

export function buildDeliveryPayload(task: DeliverableTask, token: string, callbackUrl: string): DeliveryPayload {
  // Field order follows the spec's table so the JSON reads the same way.
  return {
    taskId: task.id,
    taskToken: token,
    title: task.title,
    description: task.description,
    input: inputObject(task.input),
    callbackUrl,
    capabilities: [...task.capabilities],
    priority: task.priority,
    expiresAt: task.expiresAt.toISOString(),
    inputHash: task.inputHash,
  };
}

export function buildInputDeliveryPayload(
  task: Pick<DeliverableTask, 'id' | 'expiresAt'>,
  answer: { input: unknown; inputHash: string | null; round: number },
  token: string,
  callbackUrl: string,
): InputDeliveryPayload {
  return {
    type: 'task.input',
    taskId: task.id,
    taskToken: token,
    round: answer.round,
    input: inputObject(answer.input),
    inputHash: answer.inputHash,
    callbackUrl,
    expiresAt: task.expiresAt.toISOString(),
  };
}

// The spec types input as an object. A task without input sends {}; any
// other shape means the stored task broke that rule, which should surface
// rather than be silently replaced.
function inputObject(input: unknown): Record<string, unknown> {
  if (input === null || input === undefined) return {};
  if (typeof input === 'object' && !Array.isArray(input)) return input as Record<string, unknown>;
  throw new TypeError(`task input must be a JSON object, got ${Array.isArray(input) ? 'array' : typeof input}`);
}

export function serializePayload(payload: DeliveryPayload | InputDeliveryPayload): Buffer {
  return Buffer.from(JSON.stringify(payload), 'utf8');
}

export type DeliveryHeaderInput = {
  taskId: string;
  // task.assigned or task.input, sent as X-Service-Event.
  event?: string;
  callbackUrl: string;
  now: Date;
  /** The agent's webhook secret; null when signing is disabled. */
  secret: string | null;
  /** Secrets replaced by a rotation whose grace period still runs: Standard Webhooks signs with these too. */
  previousSecrets?: readonly string[];
  /** The agent's Ed25519 private keys (current first): v1a signatures in webhook-signature. */
  signingKeys?: readonly string[];
  /** Stable across retries of one delivery, so agents can de-duplicate. */
  deliveryId: string;
  /** The serialised payload, exactly as it will be sent. */
  body: Buffer;
};

export function deliveryHeaders(input: DeliveryHeaderInput): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': DELIVERY_USER_AGENT,
    'X-Service-Task-Id': input.taskId,
    'X-Service-Callback': input.callbackUrl,
    'X-Service-Timestamp': input.now.toISOString(),
    'X-Service-Event': input.event ?? 'task.assigned',
  };
  const timestampSeconds = Math.floor(input.now.getTime() / 1000);
  const signingKeys = input.signingKeys ?? [];
  if (input.secret === null) {
    // Without a secret only the asymmetric signature can be sent (with the headers it signs).
    return signingKeys.length > 0 ? { ...headers, ...standardWebhookHeaders([], input.deliveryId, timestampSeconds, input.body, signingKeys) } : headers;
  }
  return {
    ...headers,
    // The spec's header has room for one signature: the current secret's.
    'X-Service-Signature': signServiceSignature(input.secret, input.body),
    ...standardWebhookHeaders([input.secret, ...(input.previousSecrets ?? [])], input.deliveryId, timestampSeconds, input.body, signingKeys),
  };
}
