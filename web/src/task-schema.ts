// The task form is one JSON Schema: the spec's task fields, with the agent's own inputSchema nested as
// `input`, so one validator checks everything and shows each error beside its field.
import type { RJSFSchema, UiSchema } from '@rjsf/utils';

export const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;

export interface TaskFormData {
  title?: string;
  description?: string;
  priority?: (typeof PRIORITIES)[number];
  // Typed in dollars, sent in cents.
  maxPrice?: number;
  // One of EXPIRY_CHOICES, in minutes.
  expiresInMinutes?: number;
  input?: Record<string, unknown>;
}

// The owner's schema, made fit for nesting: keywords that only mean something at the root ($schema,
// $id) are dropped, and its definitions move to the root, where its "#/definitions/…" refs point.
export function inputSchemaOf(text: string | null | undefined): { input: RJSFSchema; definitions: Record<string, unknown> } {
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { input: { type: 'object', title: 'Input' }, definitions: {} };
  const { $schema: _schema, $id: _id, definitions, $defs, ...rest } = parsed as Record<string, unknown>;
  return {
    input: { title: 'Input', ...rest } as RJSFSchema,
    definitions: { ...(definitions as object), ...($defs as object) },
  };
}

// How long the task may wait for an answer, in words.
export const EXPIRY_CHOICES: ReadonlyArray<[number, string]> = [
  [15, '15 minutes'],
  [60, '1 hour'],
  [240, '4 hours'],
  [1440, '1 day'],
  [4320, '3 days'],
  [10_080, '1 week'],
];

export function taskFormSchema(agent: { priceCents: number; inputSchema?: string | null }): RJSFSchema {
  const { input, definitions } = inputSchemaOf(agent.inputSchema);
  const schema: RJSFSchema = {
    type: 'object',
    required: ['title', 'description', 'input'],
    properties: {
      title: { type: 'string', title: 'Title', minLength: 1, maxLength: 200 },
      description: { type: 'string', title: 'Description', minLength: 1, maxLength: 20_000 },
      priority: { type: 'string', title: 'Priority', enum: [...PRIORITIES], default: 'normal' },
      maxPrice: {
        type: 'number',
        title: 'Most you will pay ($)',
        description: 'The agent charges this much or less; nothing is charged unless it delivers.',
        minimum: 0,
        multipleOf: 0.01,
        default: agent.priceCents / 100,
      },
      expiresInMinutes: {
        type: 'integer',
        title: 'Give up after',
        description: 'The task expires if no agent has finished it by then.',
        oneOf: EXPIRY_CHOICES.map(([minutes, words]) => ({ const: minutes, title: words })),
        default: 60,
      },
      input,
    },
  };
  if (Object.keys(definitions).length) {
    schema.definitions = definitions as RJSFSchema['definitions'];
    schema.$defs = definitions as RJSFSchema['$defs'];
  }
  return schema;
}

export const taskFormUi: UiSchema = {
  description: { 'ui:widget': 'textarea', 'ui:options': { rows: 3 } },
  'ui:submitButtonOptions': { submitText: 'Send task' },
};
