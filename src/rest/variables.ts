// A route's variables, checked against the GraphQL types of its document before it runs, so a value of
// the wrong type is a 400 naming the field as the client sent it. The field comes from where coercion
// failed (graphql-js coerceInputValue's path), not from the wording of its message.
import {
  coerceInputValue,
  getNamedType,
  getNullableType,
  isInputObjectType,
  isListType,
  isNonNullType,
  Kind,
  typeFromAST,
  type DocumentNode,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { invalid, invalidFields } from '../errors.js';
import { wrongValue, type InputProblem } from './input-words.js';
import type { Route } from './route.js';

type Path = ReadonlyArray<string | number>;

export function variableTypes(schema: GraphQLSchema, document: DocumentNode): Map<string, GraphQLInputType> {
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  return new Map(
    (operation?.variableDefinitions ?? []).map((d) => [d.variable.name.value, typeFromAST(schema, d.type) as GraphQLInputType]),
  );
}

// What the client calls a variable's field: a query parameter's name, the body field under a body-wide
// `$input` (nested fields joined with dots: `requirements.deadline`; list positions left out), or the
// variable's own name (body fields and path parameters are named after their variables).
export function restField(route: Route, variable: string, path: Path = []): string {
  const parameter = Object.entries(route.request?.query ?? {}).find(([, v]) => v === variable)?.[0];
  if (parameter) return parameter;
  const keys = path.filter((segment): segment is string => typeof segment === 'string');
  return route.request?.body === 'input' && variable === 'input' && keys.length ? keys.join('.') : variable;
}

// The query parameters a route reads (`request.query`), as variables: repeated for a list, once
// otherwise; an empty value is no value; numbers become numbers, so coercion judges them.
export function queryVariables(route: Route, query: URLSearchParams, types: Map<string, GraphQLInputType>): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  for (const [parameter, variable] of Object.entries(route.request?.query ?? {})) {
    const type = getNullableType(types.get(variable)!);
    const values = query.getAll(parameter);
    if (values.length === 0) continue;
    if (isListType(type)) {
      variables[variable] = values;
      continue;
    }
    if (values.length > 1) throw invalid(parameter, `${parameter} may be given only once`);
    const value = values[0]!;
    if (value === '') continue;
    const numeric = ['Int', 'Float'].includes(getNamedType(type).name) && /^-?\d+(\.\d+)?$/.test(value);
    variables[variable] = numeric ? Number(value) : value;
  }
  return variables;
}

// The type a path inside a variable leads to.
function typeAt(type: GraphQLInputType, path: Path): GraphQLInputType {
  let at: GraphQLInputType = type;
  for (const segment of path) {
    const nullable = getNullableType(at);
    at = isListType(nullable) ? nullable.ofType : isInputObjectType(nullable) ? nullable.getFields()[segment]!.type : nullable;
  }
  return at;
}

// The problems of one coercion failure. A missing or unknown field is reported at its object, so the
// object's type and value tell which fields they are: every one of them is named.
function problemsAt(type: GraphQLInputType, path: Path, value: unknown, name: (path: Path) => string): InputProblem[] {
  const at = typeAt(type, path);
  const object = getNullableType(at);
  if (isInputObjectType(object) && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const fields = object.getFields();
    const given = value as Record<string, unknown>;
    const unknown = Object.keys(given).filter((key) => !(key in fields));
    const missing = Object.values(fields).filter((f) => isNonNullType(f.type) && f.defaultValue === undefined && (given[f.name] === undefined || given[f.name] === null));
    return [
      ...missing.map((f) => ({ field: name([...path, f.name]), message: 'is required' })),
      ...unknown.map((key) => ({ field: name([...path, key]), message: 'is not a known field' })),
    ];
  }
  // An item of a list: the list is named, and what it must hold.
  if (typeof path.at(-1) === 'number') return [{ field: name(path), message: wrongValue(typeAt(type, path.slice(0, -1)), 'item') }];
  return [{ field: name(path), message: wrongValue(at, value) }];
}

// Throws every problem as one 400 naming its fields (the first as `field`, all of them in `problems`).
export function checkVariables(route: Route, types: Map<string, GraphQLInputType>, variables: Record<string, unknown>): void {
  const problems: InputProblem[] = [];
  for (const [name, type] of types) {
    const value = variables[name];
    if (value === undefined && !isNonNullType(type)) continue;
    coerceInputValue(value, type, (path, invalidValue) => {
      for (const problem of problemsAt(type, path, invalidValue, (p) => restField(route, name, p))) {
        if (!problems.some((p) => p.field === problem.field)) problems.push(problem);
      }
    });
  }
  if (problems.length > 0) throw invalidFields(problems);
}
