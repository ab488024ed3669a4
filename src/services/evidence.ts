// Evidence of what each side gave: the SHA-256 of a JSON value in a canonical form (object keys sorted,
// no whitespace, as JSON Canonicalization Scheme does for the values JSON bodies carry), so the same
// input hashes the same however its keys were ordered on the wire.
import { createHash } from 'node:crypto';

function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
}

/** Hex SHA-256 of the canonical JSON of `value`; null stays null (nothing was given). */
export function evidenceHash(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return createHash('sha256').update(canonical(value), 'utf8').digest('hex');
}
