// What is wrong with a value a client sent, in plain words naming the field, from the GraphQL type it
// was checked against: never graphql-js's own wording ("of required type", "enum"), which speaks of
// the layer beneath REST and MCP.
import {
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLInputType,
} from 'graphql';

export interface InputProblem {
  field: string;
  message: string;
}

const INT_MAX = 2 ** 31 - 1;

// What a value of the type is, as a phrase ("a whole number", "one of: low, normal, high").
function kindOf(type: GraphQLInputType): string {
  const t = getNullableType(type);
  if (isListType(t)) return `a list of ${pluralOf(t.ofType)}`;
  if (isInputObjectType(t)) return 'an object';
  if (isEnumType(t)) return `one of: ${t.getValues().map((v) => v.name).join(', ')}`;
  switch (t.name) {
    case 'Int':
      return 'a whole number';
    case 'Float':
      return 'a number';
    case 'Boolean':
      return 'true or false';
    case 'DateTime':
      return 'an ISO 8601 date and time (e.g. 2026-01-31T12:00:00Z)';
    default:
      return 'a string';
  }
}

function pluralOf(type: GraphQLInputType): string {
  const t = getNullableType(type);
  if (isEnumType(t)) return `values from: ${t.getValues().map((v) => v.name).join(', ')}`;
  if (isScalarType(t) && t.name === 'Int') return 'whole numbers';
  if (isScalarType(t) && t.name === 'Float') return 'numbers';
  if (isScalarType(t) && t.name === 'Boolean') return 'true or false values';
  if (isInputObjectType(t)) return 'objects';
  return 'strings';
}

/** Why `value` is not a value of `type`, as the sentence after the field's name. */
export function wrongValue(type: GraphQLInputType, value: unknown): string {
  if (value === null || value === undefined) return isNonNullType(type) ? 'is required' : `must be ${kindOf(type)}`;
  const t = getNullableType(type);
  if (isScalarType(t) && t.name === 'Int' && typeof value === 'number' && Number.isInteger(value)) {
    return `must be a whole number between ${-INT_MAX - 1} and ${INT_MAX}`;
  }
  return `must be ${kindOf(type)}`;
}

