// Limits the services enforce with zod (lengths, ranges, list sizes), added to the request schemas
// derived from GraphQL, which knows only types. The zod schemas stay the single source of the limits.
import { z } from 'zod';
import { agentFields } from '../../services/agent-input.js';
import { createTask, routeQuery } from '../../services/task-input.js';
import type { JsonSchema } from './json-schema.js';

// GraphQL input type → the zod schema its fields are checked with.
const CHECKED_BY: Record<string, z.ZodType> = {
  AgentCreateInput: agentFields,
  AgentUpdateInput: agentFields,
  CreateTaskInput: createTask,
  RouteInput: routeQuery,
};

const KEYWORDS = ['minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minItems', 'maxItems'];

function limitsOf(schema: JsonSchema | undefined): JsonSchema {
  const branch = (schema?.anyOf as JsonSchema[] | undefined)?.find((s) => s.type !== 'null') ?? schema ?? {};
  const limits = Object.fromEntries(KEYWORDS.filter((k) => branch[k] !== undefined).map((k) => [k, branch[k]]));
  if (branch.items) limits.items = limitsOf(branch.items as JsonSchema);
  return limits;
}

function withLimits(target: JsonSchema, limits: JsonSchema): JsonSchema {
  if (target.$ref || target.anyOf) return target; // enums and input objects carry their own
  const { items, ...own } = limits;
  const result = { ...target, ...own };
  if (items && target.items) result.items = withLimits(target.items as JsonSchema, items as JsonSchema);
  return result;
}

export function addZodLimits(components: Record<string, JsonSchema>): void {
  for (const [name, zodSchema] of Object.entries(CHECKED_BY)) {
    const component = components[name];
    if (!component) continue;
    const zodProperties = (z.toJSONSchema(zodSchema, { io: 'input', unrepresentable: 'any' }).properties ?? {}) as Record<string, JsonSchema>;
    const properties = component.properties as Record<string, JsonSchema>;
    for (const [field, schema] of Object.entries(properties)) properties[field] = withLimits(schema, limitsOf(zodProperties[field]));
  }
}
