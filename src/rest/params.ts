// Query-string parameters, checked before the GraphQL document runs so errors name the parameter.
import { invalid } from '../errors.js';

export function enumParam<T extends string>(query: URLSearchParams, name: string, values: readonly T[]): T | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  if (!values.includes(raw as T)) throw invalid(name, `${name} must be one of: ${values.join(', ')}`);
  return raw as T;
}

export function intParam(query: URLSearchParams, name: string, range: { min: number; max: number }): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  if (!/^-?\d+$/.test(raw)) throw invalid(name, `${name} must be a whole number`);
  const value = Number(raw);
  if (value < range.min || value > range.max) throw invalid(name, `${name} must be between ${range.min} and ${range.max}`);
  return value;
}
