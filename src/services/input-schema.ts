// Agents' inputSchema: an owner-supplied JSON Schema that every task for the agent is checked against.
// It is attacker input, so its size, nesting and expansion are bounded (input-schema-bounds.ts), and its
// regular expressions run on a linear-time engine (RE2's algorithm, in pure JS), so no
// pattern can stall the event loop by backtracking.
//
// Each compile gets a fresh Ajv instance: Ajv keeps every compiled schema (and every `$id`) in its
// instance, which leaked memory and let one owner's `$id` collide with everyone else's. Compiled
// validators are cached by the hash of the schema text, so a schema is compiled once per agent
// version, not once per task.
import { createHash } from 'node:crypto';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { RE2JS } from 're2js';
import { packageLoader } from '../load-package.js';
import { checkInputSchemaBounds, InputSchemaError } from './input-schema-bounds.js';

export { InputSchemaError, MAX_BRANCHES, MAX_EXPANDED_SCHEMA_NODES, MAX_INPUT_SCHEMA_DEPTH, MAX_UNIQUE_ITEMS } from './input-schema-bounds.js';

export const MAX_INPUT_SCHEMA_BYTES = 64 * 1024;
const CACHE_SIZE = 500;
// Loaded with the first schema compiled, not at start: a service whose agents declare no input schema
// never needs them.
const loadAjv = packageLoader<typeof import('ajv')>('ajv');
const loadRE2 = packageLoader<typeof import('re2js')>('re2js');

// Ajv's hook for its `pattern` and `patternProperties` keywords. Patterns RE2 cannot run in linear time
// (look-around, back-references) fail to compile, and the schema is refused.
function linearRegExp(pattern: string): { test(s: string): boolean } {
  let compiled: RE2JS;
  try {
    compiled = loadRE2().RE2JS.compile(pattern);
  } catch (error) {
    throw new InputSchemaError(`the pattern ${JSON.stringify(pattern.slice(0, 100))} is not supported (${(error as Error).message}); look-around and back-references are not allowed`);
  }
  return { test: (s) => compiled.test(s) };
}
linearRegExp.code = 'linearRegExp';

// A file field ("type": "string", "format": "binary") takes a file reference: the input is checked with
// each {"$file": id} in place of its id (task-files.ts fileRefsAsIds), so the field holds a file id.
// Unregistered, Ajv would ignore the format and any text would pass for a file.
const FILE_FORMAT = { type: 'string' as const, validate: (value: string) => /^fil_[A-Za-z0-9]{1,60}$/.test(value) };

/** Parses, bounds and compiles a schema text; throws InputSchemaError with a reason the owner can act on. */
function compile(text: string): Compiled {
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
  try {
    const expandedNodes = checkInputSchemaBounds(parsed);
    const { Ajv } = loadAjv();
    const ajv = new Ajv({ strict: false, validateSchema: true, code: { regExp: linearRegExp } });
    ajv.addFormat('binary', FILE_FORMAT);
    if (!ajv.validateSchema(parsed as object)) throw new InputSchemaError(schemaMistakes(ajv.errors ?? []));
    return { validate: ajv.compile(parsed as object), expandedNodes };
  } catch (error) {
    if (error instanceof InputSchemaError) throw error;
    if (error instanceof RangeError) throw new InputSchemaError('the schema is too complex');
    // Ajv's compile errors can carry the whole generated code; the first line says what is wrong.
    throw new InputSchemaError(String((error as Error).message).split('\n')[0]!.slice(0, 300));
  }
}

// JSON types in words, for what a keyword of the schema must be.
const TYPE_WORDS: Record<string, string> = {
  array: 'a list',
  object: 'an object',
  string: 'a string',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  null: 'null',
};

// What is wrong with a schema, in words, from Ajv's check against the JSON Schema meta-schema (whose own
// text reads "data/type must be array"): one sentence per place, naming the keyword by its path.
function schemaMistakes(errors: ErrorObject[]): string {
  const byPlace = new Map<string, ErrorObject[]>();
  for (const e of errors) byPlace.set(e.instancePath, [...(byPlace.get(e.instancePath) ?? []), e]);
  const sentences = [...byPlace].slice(0, 3).map(([place, found]) => {
    const where = place ? `"${place.slice(1).replaceAll('/', '.')}"` : 'the schema';
    const allowed = found.find((e) => e.keyword === 'enum')?.params.allowedValues as unknown[] | undefined;
    const types = found.filter((e) => e.keyword === 'type').map((e) => TYPE_WORDS[String(e.params.type)] ?? String(e.params.type));
    if (allowed) return `${where} must be one of: ${allowed.join(', ')}${types.includes('a list') ? ' (or a list of them)' : ''}`;
    if (types.length) return `${where} must be ${types.join(' or ')}`;
    const other = found.find((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf') ?? found[0]!;
    return `${where} ${other.message ?? 'is not valid'}`;
  });
  return sentences.join('; ');
}

interface Compiled {
  validate: ValidateFunction;
  expandedNodes: number;
}

const cache = new Map<string, Compiled | InputSchemaError>();
let compiles = 0;

/** The validator of a schema text, compiled at most once while it stays in the cache. */
export function inputSchemaValidator(text: string): Compiled {
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

// Checking costs up to (schema nodes, references expanded) x (input values): a schema at the node
// budget took 47 s on 300 000 array items. Inputs over this product are refused instead of checked.
export const MAX_CHECK_WORK = 1_000_000;

// How many JSON values the input holds, counting stops once it is over `limit`.
function valueCount(data: unknown, limit: number): number {
  const stack = [data];
  let count = 0;
  while (stack.length > 0 && count <= limit) {
    const value = stack.pop();
    count++;
    if (value !== null && typeof value === 'object') for (const child of Object.values(value)) stack.push(child);
  }
  return count;
}

/** Checks data against a schema text; returns null when it matches, else a sentence saying why not. */
export function inputSchemaProblem(text: string, data: unknown): string | null {
  const { validate, expandedNodes } = inputSchemaValidator(text);
  const maxValues = Math.floor(MAX_CHECK_WORK / expandedNodes);
  if (valueCount(data, maxValues) > maxValues) {
    return `input is too large to check against the agent's inputSchema: at most ${maxValues} JSON values for this schema`;
  }
  if (validate(data)) return null;
  const reasons = (validate.errors ?? [])
    .slice(0, 5)
    .map((e) => `${e.instancePath || 'input'} ${e.keyword === 'format' && e.params.format === 'binary' ? 'must be a file ({"$file": "fil_…"})' : (e.message ?? 'is invalid')}`)
    .join(', ');
  return `input does not match the agent's inputSchema: ${reasons}`;
}
