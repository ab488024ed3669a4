// How a route's answer is put together from its GraphQL result, described once as data: the runner
// builds the answer from it (answerFor) and the OpenAPI document states it (shapeSchema), so the two
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

// The answer to send, from the document's data and the request's path parameters.
export type Answer = (value: unknown, params: Record<string, string>) => unknown;

// A shape made into the function that builds its answer, once per route: a request then walks no
// description (no path split, no property list filtered) and allocates only the answer itself.
export function answerFor(shape: Shape): Answer {
  switch (shape.kind) {
    case 'result': {
      const keys = shape.path ? shape.path.split('.') : [];
      return (value) => {
        let at = value;
        for (const key of keys) at = (at as Json | null | undefined)?.[key];
        return at;
      };
    }
    case 'object': {
      const properties = Object.entries(shape.properties).map(([key, s]) => ({ key, answer: answerFor(s), optional: shape.optional.includes(key) }));
      return (value, params) => {
        const answer: Json = {};
        for (const { key, answer: of, optional } of properties) {
          const v = of(value, params);
          if (!(optional && (v === null || v === undefined))) answer[key] = v;
        }
        return answer;
      };
    }
    case 'list': {
      const items = answerFor(result(shape.path));
      const of = answerFor(shape.of);
      return (value, params) => (items(value, params) as unknown[]).map((item) => of(item, params));
    }
    case 'merge': {
      const parts = shape.parts.map(answerFor);
      return (value, params) => {
        const answers = parts.map((of) => of(value, params));
        return answers.some((p) => p === null || p === undefined) ? null : Object.assign({}, ...answers);
      };
    }
    case 'nullable':
      return answerFor(shape.of);
    case 'constant': {
      const { value } = shape;
      return () => value;
    }
    case 'param': {
      const { name } = shape;
      return (_value, params) => params[name];
    }
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
