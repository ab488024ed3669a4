// Limits (lengths, ranges, list sizes) added to the request schemas derived from GraphQL, which knows
// only types. They are read from the zod schemas attached to the input types through Pothos's
// validation plugin, the same objects that check the requests, so there is no second list of them.
import { isInputObjectType, type GraphQLSchema } from 'graphql';
import { z } from 'zod';
import type { JsonSchema } from './json-schema.js';

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

// The zod schema the validation plugin checks an input type with, if there is one.
function zodSchemaOf(graphql: GraphQLSchema, name: string): z.ZodType | null {
  const type = graphql.getType(name);
  if (!isInputObjectType(type)) return null;
  const schema = type.extensions['@pothos/plugin-validation']?.schemas?.[0];
  return schema instanceof z.ZodType ? schema : null;
}

export function addZodLimits(components: Record<string, JsonSchema>, graphql: GraphQLSchema): void {
  for (const [name, component] of Object.entries(components)) {
    const zodSchema = zodSchemaOf(graphql, name);
    if (!zodSchema) continue;
    const zodProperties = (z.toJSONSchema(zodSchema, { io: 'input', unrepresentable: 'any' }).properties ?? {}) as Record<string, JsonSchema>;
    const properties = component.properties as Record<string, JsonSchema>;
    for (const [field, schema] of Object.entries(properties)) properties[field] = withLimits(schema, limitsOf(zodProperties[field]));
  }
}
