// Agents' inputSchema: an owner-supplied JSON Schema that every task for the agent is checked against.
// It is attacker input, so its size and nesting are bounded, references may only point inside the
// schema, and its regular expressions run on a linear-time engine (RE2's algorithm, in pure JS), so no
// pattern can stall the event loop by backtracking.
//
// Each compile gets a fresh Ajv instance: Ajv keeps every compiled schema (and every `$id`) in its
// instance, which leaked memory and let one owner's `$id` collide with everyone else's. Compiled
// validators are cached by the hash of the schema text, so a schema is compiled once per agent
// version, not once per task.
import { createHash } from 'node:crypto';
import { Ajv, type ValidateFunction } from 'ajv';
import { RE2JS } from 're2js';

export const MAX_INPUT_SCHEMA_BYTES = 64 * 1024;
export const MAX_INPUT_SCHEMA_DEPTH = 32;
const CACHE_SIZE = 500;

export class InputSchemaError extends Error {}

// Ajv's hook for its `pattern` and `patternProperties` keywords. Patterns RE2 cannot run in linear time
// (look-around, back-references) fail to compile, and the schema is refused.
function linearRegExp(pattern: string): { test(s: string): boolean } {
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern);
  } catch (error) {
    throw new InputSchemaError(`the pattern ${JSON.stringify(pattern.slice(0, 100))} is not supported (${(error as Error).message}); look-around and back-references are not allowed`);
  }
  return { test: (s) => compiled.test(s) };
}
linearRegExp.code = 'linearRegExp';

// Walks the parsed schema without recursion (the depth bound is what this checks).
function checkShape(schema: unknown): void {
  const stack: Array<{ value: unknown; depth: number }> = [{ value: schema, depth: 1 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_INPUT_SCHEMA_DEPTH) throw new InputSchemaError(`the schema is nested more than ${MAX_INPUT_SCHEMA_DEPTH} levels deep`);
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string' && !child.startsWith('#')) {
        throw new InputSchemaError(`$ref ${JSON.stringify(child.slice(0, 100))} points outside the schema; only local references (#/…) are allowed`);
      }
      stack.push({ value: child, depth: depth + 1 });
    }
  }
}

/** Parses, bounds and compiles a schema text; throws InputSchemaError with a reason the owner can act on. */
function compile(text: string): ValidateFunction {
  if (Buffer.byteLength(text, 'utf8') > MAX_INPUT_SCHEMA_BYTES) {
    throw new InputSchemaError(`the schema is larger than ${MAX_INPUT_SCHEMA_BYTES} bytes`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new InputSchemaError('it is not JSON');
  }
  if (typeof parsed !== 'boolean' && (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))) {
    throw new InputSchemaError('it must be a JSON Schema object');
  }
  checkShape(parsed);
  const ajv = new Ajv({ strict: false, validateSchema: true, code: { regExp: linearRegExp } });
  try {
    if (!ajv.validateSchema(parsed as object)) throw new InputSchemaError(ajv.errorsText(ajv.errors));
    return ajv.compile(parsed as object);
  } catch (error) {
    if (error instanceof InputSchemaError) throw error;
    throw new InputSchemaError((error as Error).message);
  }
}

const cache = new Map<string, ValidateFunction | InputSchemaError>();
let compiles = 0;

/** The validator of a schema text, compiled at most once while it stays in the cache. */
export function inputSchemaValidator(text: string): ValidateFunction {
  const key = createHash('sha256').update(text).digest('base64');
  let entry = cache.get(key);
  if (entry) {
    // Most recently used last, so the oldest entry is the one evicted.
    cache.delete(key);
  } else {
    compiles++;
    try {
      entry = compile(text);
    } catch (error) {
      entry = error as InputSchemaError;
    }
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  }
  cache.set(key, entry);
  if (entry instanceof InputSchemaError) throw entry;
  return entry;
}

/** How many schemas were compiled since the process started (tests check the cache with it). */
export const inputSchemaCompileCount = () => compiles;

/** Validates data against a schema text; returns null when it matches, else Ajv's description. */
export function inputSchemaMismatch(text: string, data: unknown): string | null {
  const validate = inputSchemaValidator(text);
  if (validate(data)) return null;
  return (validate.errors ?? []).map((e) => `${e.instancePath || 'input'} ${e.message ?? 'is invalid'}`).join(', ');
}
