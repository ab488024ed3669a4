// How a route's answer is put together from its GraphQL result, described as data so the OpenAPI
// document can state it (rest/openapi) and the contract test can hold the route to it.
import type { DocumentNode } from 'graphql';
import { unwrapNull, type JsonSchema, type SchemaComponents } from './openapi/json-schema.js';

export type Shape =
  // What the document answers at a dotted path; `name[]` steps into the items of a list.
  | { kind: 'result'; path: string }
  | { kind: 'object'; properties: Record<string, Shape>; optional: string[] }
  | { kind: 'array'; of: Shape }
  // The properties of both objects in one (a later one wins).
  | { kind: 'merge'; parts: Shape[] }
  | { kind: 'nullable'; of: Shape }
  | { kind: 'schema'; schema: JsonSchema };

export const result = (path: string): Shape => ({ kind: 'result', path });
export const object = (properties: Record<string, Shape>, optional: string[] = []): Shape => ({ kind: 'object', properties, optional });
export const array = (of: Shape): Shape => ({ kind: 'array', of });
export const merge = (...parts: Shape[]): Shape => ({ kind: 'merge', parts });
export const nullable = (of: Shape): Shape => ({ kind: 'nullable', of });
export const literal = (schema: JsonSchema): Shape => ({ kind: 'schema', schema });
// The common answer: `{ data: <what the document answers at path> }`.
export const data = (path: string): Shape => object({ data: result(path) });

export function shapeSchema(shape: Shape, document: DocumentNode, components: SchemaComponents): JsonSchema {
  const of = (s: Shape) => shapeSchema(s, document, components);
  switch (shape.kind) {
    case 'result':
      return resultAt(components, document, shape.path);
    case 'object': {
      const keys = Object.keys(shape.properties);
      return {
        type: 'object',
        properties: Object.fromEntries(keys.map((k) => [k, of(shape.properties[k]!)])),
        required: keys.filter((k) => !shape.optional.includes(k)),
        additionalProperties: false,
      };
    }
    case 'array':
      return { type: 'array', items: of(shape.of) };
    case 'merge': {
      const parts = shape.parts.map((p) => unwrapNull(of(p)));
      return {
        type: 'object',
        properties: Object.assign({}, ...parts.map((p) => p.properties)),
        required: [...new Set(parts.flatMap((p) => p.required as string[]))],
        additionalProperties: false,
      };
    }
    case 'nullable':
      return { anyOf: [of(shape.of), { type: 'null' }] };
    case 'schema':
      return shape.schema;
  }
}

function resultAt(components: SchemaComponents, document: DocumentNode, path: string): JsonSchema {
  // `a[].b`: the schema of b in the items of list a.
  const [head, ...rest] = path.split('[]');
  let schema = components.result(document, head!);
  for (const segment of rest) {
    schema = unwrapNull(schema).items as JsonSchema;
    for (const key of segment.split('.').filter(Boolean)) {
      schema = (unwrapNull(schema).properties as Record<string, JsonSchema>)[key]!;
      if (!schema) throw new Error(`nothing selected at ${path}`);
    }
  }
  return schema;
}
