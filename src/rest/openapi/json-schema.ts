// JSON Schema (2020-12, as OpenAPI 3.1 uses it) from the GraphQL schema: input types for request
// bodies and parameters, and a document's selection set for what a route answers. Each route's field
// lists therefore live only in its GraphQL document.
import {
  Kind,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  typeFromAST,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

export type JsonSchema = Record<string, unknown>;

const SCALARS: Record<string, JsonSchema> = {
  ID: { type: 'string' },
  String: { type: 'string' },
  Int: { type: 'integer' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  DateTime: { type: 'string', format: 'date-time' },
  JSON: {},
};

const nullable = (schema: JsonSchema): JsonSchema => {
  if (Object.keys(schema).length === 0) return schema; // any JSON value, null included
  if (typeof schema.type === 'string' && !schema.enum) return { ...schema, type: [schema.type, 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
};

const described = (schema: JsonSchema, description: string | null | undefined): JsonSchema =>
  description ? { ...schema, description } : schema;

// Named input objects and enums become components, referenced where used.
export class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = {};
  constructor(readonly graphql: GraphQLSchema) {}

  private named(type: GraphQLNamedType): JsonSchema {
    if (isScalarType(type)) return SCALARS[type.name] ?? {};
    if (!this.schemas[type.name]) {
      this.schemas[type.name] = {}; // placeholder: input types may refer to themselves
      if (isEnumType(type)) {
        this.schemas[type.name] = described({ type: 'string', enum: type.getValues().map((v) => v.value as string) }, type.description);
      } else if (isInputObjectType(type)) {
        const fields = Object.values(type.getFields());
        this.schemas[type.name] = described(
          {
            type: 'object',
            properties: Object.fromEntries(fields.map((f) => [f.name, described(this.input(f.type), f.description)])),
            required: fields.filter((f) => isNonNullType(f.type) && f.defaultValue === undefined).map((f) => f.name),
            additionalProperties: false,
          },
          type.description,
        );
      }
    }
    return { $ref: `#/components/schemas/${type.name}` };
  }

  input(type: GraphQLInputType): JsonSchema {
    if (isNonNullType(type)) return this.inputNonNull(type.ofType);
    return nullable(this.inputNonNull(type));
  }

  private inputNonNull(type: GraphQLInputType): JsonSchema {
    if (isListType(type)) return { type: 'array', items: this.input(type.ofType) };
    return this.named(getNamedType(type));
  }

  // The type of a document's variable, by name.
  variable(document: DocumentNode, name: string): { schema: JsonSchema; required: boolean } {
    const operation = operationOf(document);
    const definition = operation.variableDefinitions?.find((v) => v.variable.name.value === name);
    if (!definition) throw new Error(`${operation.name?.value}: no variable $${name}`);
    const type = typeFromAST(this.graphql, definition.type) as GraphQLInputType | undefined;
    if (!type) throw new Error(`${operation.name?.value}: unknown type of $${name}`);
    return { schema: this.input(type), required: isNonNullType(type) && !definition.defaultValue };
  }

  // What the document answers at `path` (`tasks.data`, or '' for the whole result).
  result(document: DocumentNode, path: string): JsonSchema {
    const operation = operationOf(document);
    const root = operation.operation === 'mutation' ? this.graphql.getMutationType()! : this.graphql.getQueryType()!;
    const fragments = new Map(
      document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]),
    );
    let schema = this.selection(root, operation.selectionSet, fragments);
    for (const key of path ? path.split('.') : []) {
      const object = unwrapNull(schema);
      const next = (object.properties as Record<string, JsonSchema> | undefined)?.[key];
      if (!next) throw new Error(`${operation.name?.value}: nothing selected at ${path}`);
      schema = next;
    }
    return schema;
  }

  private output(type: GraphQLOutputType, selection: SelectionSetNode | undefined, fragments: Map<string, FragmentDefinitionNode>): JsonSchema {
    if (isNonNullType(type)) return this.outputNonNull(type.ofType, selection, fragments);
    return nullable(this.outputNonNull(type, selection, fragments));
  }

  private outputNonNull(type: GraphQLOutputType, selection: SelectionSetNode | undefined, fragments: Map<string, FragmentDefinitionNode>): JsonSchema {
    if (isListType(type)) return { type: 'array', items: this.output(type.ofType, selection, fragments) };
    const named = getNamedType(type);
    if (isObjectType(named) && selection) return this.selection(named, selection, fragments);
    if (isEnumType(named)) return this.named(named);
    if (isScalarType(named)) return SCALARS[named.name] ?? {};
    throw new Error(`no JSON Schema for ${named.name}`);
  }

  private selection(type: GraphQLObjectType, set: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    const collect = (selections: SelectionSetNode) => {
      for (const node of selections.selections) {
        if (node.kind === Kind.FRAGMENT_SPREAD) collect(fragments.get(node.name.value)!.selectionSet);
        else if (node.kind === Kind.INLINE_FRAGMENT) collect(node.selectionSet);
        else if (node.name.value !== '__typename') {
          const field = type.getFields()[node.name.value];
          if (!field) throw new Error(`${type.name} has no field ${node.name.value}`);
          properties[node.alias?.value ?? node.name.value] = described(this.output(field.type, node.selectionSet, fragments), field.description);
        }
      }
    };
    collect(set);
    // Every selected field is present in an answer (null where nullable).
    return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
  }
}

function operationOf(document: DocumentNode): OperationDefinitionNode {
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (!operation) throw new Error('a route document must hold an operation');
  return operation;
}

export function unwrapNull(schema: JsonSchema): JsonSchema {
  const anyOf = schema.anyOf as JsonSchema[] | undefined;
  return anyOf?.find((s) => s.type !== 'null') ?? schema;
}
