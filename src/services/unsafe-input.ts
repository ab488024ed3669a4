// Input that would break the service further in rather than be refused: values nested deeper than any
// real request needs (serialising them overflows the stack), and strings PostgreSQL cannot store (a NUL
// character in text or jsonb, a lone UTF-16 surrogate in jsonb). Checked at the boundary, REST and
// GraphQL alike, so the caller gets a 400 naming the field instead of a 500 from deep inside.
import { invalid, type AppError } from '../errors.js';

export const MAX_INPUT_DEPTH = 64;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function badString(s: string): string | null {
  if (s.includes('\u0000')) return 'must not contain the NUL character (\\u0000)';
  if (LONE_SURROGATE.test(s)) return 'must not contain an unpaired UTF-16 surrogate';
  return null;
}

const join = (path: string, key: string | number) => (typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key);

/**
 * The first problem in a decoded JSON value (or query parameter), as a 400 whose field is the path to
 * it, e.g. `input.items[3].name`; null when the value is safe. Walks without recursion.
 */
export function unsafeInput(value: unknown, path: string): AppError | null {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value, path, depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    const field = item.path || 'body';
    if (typeof item.value === 'string') {
      const problem = badString(item.value);
      if (problem) return invalid(field, `${field} ${problem}`);
      continue;
    }
    if (item.value === null || typeof item.value !== 'object') continue;
    if (item.depth >= MAX_INPUT_DEPTH) return invalid(field, `${field} is nested more than ${MAX_INPUT_DEPTH} levels deep`);
    const entries: Array<[string | number, unknown]> = Array.isArray(item.value) ? item.value.map((v, i) => [i, v]) : Object.entries(item.value);
    for (const [key, child] of entries) {
      if (typeof key === 'string') {
        const problem = badString(key);
        if (problem) return invalid(field, `a key in ${field} ${problem}`);
      }
      stack.push({ value: child, path: join(item.path, key), depth: item.depth + 1 });
    }
  }
  return null;
}
