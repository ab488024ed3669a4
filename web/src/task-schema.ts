// The task form is one JSON Schema: the spec's task fields, with the agent's own inputSchema nested as
// `input`, so one validator checks everything and shows each error beside its field.
import type { RJSFSchema, UiSchema } from '@rjsf/utils';

export const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;

export interface TaskFormData {
  title?: string;
  description?: string;
  priority?: (typeof PRIORITIES)[number];
  maxPriceCents?: number;
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

export function taskFormSchema(agent: { priceCents: number; inputSchema?: string | null }): RJSFSchema {
  const { input, definitions } = inputSchemaOf(agent.inputSchema);
  const schema: RJSFSchema = {
    type: 'object',
    required: ['title', 'description', 'input'],
    properties: {
      title: { type: 'string', title: 'Title', minLength: 1, maxLength: 200 },
      description: { type: 'string', title: 'Description', minLength: 1, maxLength: 20_000 },
      priority: { type: 'string', title: 'Priority', enum: [...PRIORITIES], default: 'normal' },
      maxPriceCents: { type: 'integer', title: 'Max price (cents)', minimum: 0, default: agent.priceCents },
      expiresInMinutes: { type: 'number', title: 'Expires in (minutes)', exclusiveMinimum: 0, maximum: 10_080, default: 60 },
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
