// The shape of each A2A method's params (v1.0 and v0.3 spellings), checked before the SDK's codecs read
// them: the codecs trust their input, so `parts: [null]` or `id: {}` would fail inside them as an internal
// error with a JavaScript message. Only the types of what is read are checked (fields stay optional where
// the protocol lets them be, unknown fields pass); the handler judges the values. A mismatch is answered
// as JSON-RPC invalid params (-32602), naming the field.
import { z } from 'zod';

const text = z.string();
const object = z.record(z.string(), z.unknown());
const strings = z.array(text).max(100);

const authentication = z.looseObject({ scheme: text.optional(), credentials: text.optional(), schemes: strings.optional() });
const pushConfig = z.looseObject({ id: text.optional(), taskId: text.optional(), url: text, token: text.optional(), authentication: authentication.optional() });

// A part of either version: v1.0 puts its content in text | raw | url | data, v0.3 names it with kind.
const part = z.looseObject({
  kind: text.optional(),
  text: text.optional(),
  raw: text.optional(),
  url: text.optional(),
  mediaType: text.optional(),
  filename: text.optional(),
  file: z.looseObject({ bytes: text.optional(), uri: text.optional(), name: text.optional(), mimeType: text.optional() }).optional(),
  metadata: object.optional(),
});

const message = z.looseObject({
  messageId: text.optional(),
  contextId: text.optional(),
  taskId: text.optional(),
  role: z.union([text, z.number()]).optional(),
  parts: z.array(part).max(1000).optional(),
  metadata: object.optional(),
  extensions: strings.optional(),
  referenceTaskIds: strings.optional(),
});

const sendMessage = z.looseObject({
  message,
  configuration: z
    .looseObject({
      acceptedOutputModes: strings.optional(),
      taskPushNotificationConfig: pushConfig.optional(),
      pushNotificationConfig: pushConfig.optional(),
      historyLength: z.number().optional(),
      returnImmediately: z.boolean().optional(),
      blocking: z.boolean().optional(),
    })
    .optional(),
  metadata: object.optional(),
});

const byId = z.looseObject({ id: text, historyLength: z.number().optional(), metadata: object.optional() });

const SCHEMAS: Record<string, z.ZodType> = {
  SendMessage: sendMessage,
  SendStreamingMessage: sendMessage,
  GetTask: byId,
  CancelTask: byId,
  SubscribeToTask: byId,
  ListTasks: z.looseObject({
    contextId: text.optional(),
    status: z.union([text, z.number()]).optional(),
    pageSize: z.number().optional(),
    pageToken: text.optional(),
    historyLength: z.number().optional(),
    includeArtifacts: z.boolean().optional(),
    statusTimestampAfter: text.optional(),
  }),
  CreateTaskPushNotificationConfig: pushConfig.extend({ taskId: text }),
  GetTaskPushNotificationConfig: z.looseObject({ taskId: text, id: text }),
  DeleteTaskPushNotificationConfig: z.looseObject({ taskId: text, id: text }),
  ListTaskPushNotificationConfigs: z.looseObject({ taskId: text, pageSize: z.number().optional(), pageToken: text.optional() }),
  'message/send': sendMessage,
  'message/stream': sendMessage,
  'tasks/get': byId,
  'tasks/cancel': byId,
  'tasks/resubscribe': byId,
  'tasks/pushNotificationConfig/set': z.looseObject({ taskId: text, pushNotificationConfig: pushConfig }),
  'tasks/pushNotificationConfig/get': z.looseObject({ id: text, pushNotificationConfigId: text.optional() }),
  'tasks/pushNotificationConfig/list': z.looseObject({ id: text }),
  'tasks/pushNotificationConfig/delete': z.looseObject({ id: text, pushNotificationConfigId: text }),
};

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

function describe(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'is required' : `must be ${article(issue.expected)}`;
    case 'invalid_union':
      return 'has the wrong type';
    case 'too_big':
      return `has more than ${String(issue.maximum)} entries`;
    default:
      return 'is not valid';
  }
}

const fieldPath = (path: ReadonlyArray<PropertyKey>) =>
  path.reduce<string>((acc, key) => (typeof key === 'number' ? `${acc}[${key}]` : `${acc}.${String(key)}`), 'params');

// Null when the params fit the method (or the method is not one we know: the SDK answers it); otherwise
// the problem in plain words, naming the field.
export function paramsProblem(method: string, params: unknown): string | null {
  // Own names only: a method called `constructor` or `__proto__` must not find Object's.
  if (!Object.hasOwn(SCHEMAS, method)) return null;
  const schema = SCHEMAS[method]!;
  const parsed = schema.safeParse(params ?? {}, { reportInput: true });
  if (parsed.success) return null;
  const issue = parsed.error.issues[0]!;
  return `${fieldPath(issue.path)} ${describe(issue)}`;
}
