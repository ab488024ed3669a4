// How a route's answer is put together from its GraphQL result, described once as data: the runner
// builds the answer from it (answerOf) and the OpenAPI document states it (shapeSchema), so the two
// cannot drift apart.
import type { DocumentNode } from 'graphql';
import { unwrapNull, type JsonSchema, type SchemaComponents } from './openapi/json-schema.js';

export type Shape =
  // What the document answers at a dotted path, from where the shape stands ('' for right there).
  | { kind: 'result'; path: string; description?: string }
  // An object of these properties; an optional one is left out when its value is null.
  | { kind: 'object'; properties: Record<string, Shape>; optional: string[] }
  // Each item of the list at `path`, shaped by `of` (whose paths start at the item).
  | { kind: 'list'; path: string; of: Shape }
  // The properties of all objects in one (a later one wins); null when one of them is null.
  | { kind: 'merge'; parts: Shape[] }
  | { kind: 'nullable'; of: Shape }
  // A fixed value, and a path parameter of the request.
  | { kind: 'constant'; value: string }
  | { kind: 'param'; name: string };

export const result = (path: string, description?: string): Shape => ({ kind: 'result', path, description });
export const object = (properties: Record<string, Shape>, optional: string[] = []): Shape => ({ kind: 'object', properties, optional });
export const list = (path: string, of: Shape): Shape => ({ kind: 'list', path, of });
export const merge = (...parts: Shape[]): Shape => ({ kind: 'merge', parts });
export const nullable = (of: Shape): Shape => ({ kind: 'nullable', of });
export const constant = (value: string): Shape => ({ kind: 'constant', value });
export const param = (name: string): Shape => ({ kind: 'param', name });
// The common answer: `{ data: <what the document answers at path> }`.
export const data = (path: string): Shape => object({ data: result(path) });

type Json = Record<string, unknown>;

function at(value: unknown, path: string): unknown {
  return path ? path.split('.').reduce<unknown>((v, key) => (v as Json | null)?.[key], value) : value;
}

// The answer to send, from the document's data and the request's path parameters.
export function answerOf(shape: Shape, value: unknown, params: Record<string, string>): unknown {
  const of = (s: Shape, v: unknown = value) => answerOf(s, v, params);
  switch (shape.kind) {
    case 'result':
      return at(value, shape.path);
    case 'object': {
      const entries = Object.entries(shape.properties).map(([key, s]) => [key, of(s)] as const);
      return Object.fromEntries(entries.filter(([key, v]) => !(shape.optional.includes(key) && (v === null || v === undefined))));
    }
    case 'list':
      return (at(value, shape.path) as unknown[]).map((item) => of(shape.of, item));
    case 'merge': {
      const parts = shape.parts.map((p) => of(p));
      return parts.some((p) => p === null || p === undefined) ? null : Object.assign({}, ...parts);
    }
    case 'nullable':
      return of(shape.of);
    case 'constant':
      return shape.value;
    case 'param':
      return params[shape.name];
  }
}

// The JSON Schema of the answer, over the schema of the document's result.
export function shapeSchema(shape: Shape, document: DocumentNode, components: SchemaComponents): JsonSchema {
  return schemaAt(shape, components.result(document, ''));
}

function schemaAt(shape: Shape, current: JsonSchema): JsonSchema {
  const of = (s: Shape, c: JsonSchema = current) => schemaAt(s, c);
  switch (shape.kind) {
    case 'result': {
      const schema = selected(current, shape.path);
      return shape.description ? { ...schema, description: shape.description } : schema;
    }
    case 'object': {
      const keys = Object.keys(shape.properties);
      // An optional property is left out when null, so where it is present it is not null.
      const property = (k: string) => (shape.optional.includes(k) ? nonNull(of(shape.properties[k]!)) : of(shape.properties[k]!));
      return {
        type: 'object',
        properties: Object.fromEntries(keys.map((k) => [k, property(k)])),
        required: keys.filter((k) => !shape.optional.includes(k)),
        additionalProperties: false,
      };
    }
    case 'list':
      return { type: 'array', items: of(shape.of, unwrapNull(selected(current, shape.path)).items as JsonSchema) };
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
    case 'constant':
    case 'param':
      return { type: 'string' };
  }
}

function selected(schema: JsonSchema, path: string): JsonSchema {
  let current = schema;
  for (const key of path ? path.split('.') : []) {
    current = (unwrapNull(current).properties as Record<string, JsonSchema> | undefined)?.[key] as JsonSchema;
    if (!current) throw new Error(`nothing selected at ${path}`);
  }
  return current;
}

function nonNull(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((t) => t !== 'null');
    return { ...schema, type: types.length === 1 ? types[0] : types };
  }
  return schema.anyOf ? { ...unwrapNull(schema), ...(schema.description ? { description: schema.description } : {}) } : schema;
}
