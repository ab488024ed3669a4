// Statements whose text depends on the shape of their values (which optional columns a move writes, how
// many jobs it adds, how long a list is), compiled by Kysely once per shape and then run with the call's
// values as parameters (as db/compiled-statement.ts does for statements of one shape).
//
// The builder is ordinary Kysely code over the call's values. For a new shape it runs once on a copy of
// the values whose leaves (strings, numbers, dates, byte arrays) are placeholders that Kysely keeps as the
// statement's parameters; each call then puts its own leaves where the placeholders are. What the shape
// holds, the builder may branch on: which keys are present (undefined counts as absent), the length of
// each array, which leaves are null, and booleans (kept as they are). It must not branch on a string,
// number or date, nor take values from anywhere but its argument.
//
// SQL fragments with values of their own (a JSON value's text, a job's add_job call) are made with
// `sqlWithValues`, so that their values are leaves too. A value the walk cannot see into (any other SQL
// fragment, a function) makes the call build its statement as usual, as does a shape past the cache's
// bound.
import type { CompiledQuery, Compilable, QueryResult, RawBuilder } from 'kysely';
import type { SqlDb } from './kysely.js';

const MAX_SHAPES = 256;
const madeFrom = Symbol('sqlWithValues');

interface Made {
  name: string;
  values: Record<string, unknown>;
  make: (values: Record<string, unknown>) => RawBuilder<unknown>;
}

// A SQL fragment made by `make` from `values`, which a shaped statement can make again from placeholders.
// `name` tells fragments with the same values but a different text apart.
export function sqlWithValues<V extends Record<string, unknown>, T extends RawBuilder<unknown>>(name: string, values: V, make: (values: V) => T): T {
  return Object.assign(make(values), { [madeFrom]: { name, values, make } as Made });
}

class Placeholder {
  constructor(readonly path: readonly string[]) {}
}

const isPlain = (v: object) => {
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
};
const isLeaf = (v: unknown) =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint' || v instanceof Date || v instanceof Uint8Array;
const made = (v: object): Made | undefined => (v as { [madeFrom]?: Made })[madeFrom];

// The shape of a value as text, or null when the walk cannot see into it.
function shapeOf(v: unknown): string | null {
  if (v === null) return 'N';
  if (v === undefined) return 'U';
  if (typeof v === 'boolean') return v ? 'T' : 'F';
  if (isLeaf(v)) return 'v';
  if (typeof v !== 'object') return null;
  const fragment = made(v);
  if (fragment) {
    const inner = shapeOf(fragment.values);
    return inner === null ? null : `R${fragment.name}${inner}`;
  }
  if (Array.isArray(v)) {
    let out = '[';
    for (const item of v) {
      const s = shapeOf(item);
      if (s === null) return null;
      out += `${s},`;
    }
    return `${out}]`;
  }
  if (!isPlain(v)) return null;
  let out = '{';
  for (const key in v) {
    const item = (v as Record<string, unknown>)[key];
    if (item === undefined) continue;
    const s = shapeOf(item);
    if (s === null) return null;
    out += `${key}:${s},`;
  }
  return `${out}}`;
}

// The value with its leaves replaced by placeholders naming their path.
function masked(v: unknown, path: string[]): unknown {
  if (v === null || v === undefined || typeof v === 'boolean') return v;
  if (isLeaf(v)) return new Placeholder(path);
  const fragment = made(v as object);
  if (fragment) return fragment.make(masked(fragment.values, path) as Record<string, unknown>);
  if (Array.isArray(v)) return v.map((item, i) => masked(item, [...path, String(i)]));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(v as Record<string, unknown>)) if (item !== undefined) out[key] = masked(item, [...path, key]);
  return out;
}

function at(v: unknown, path: readonly string[]): unknown {
  let here = v;
  for (const key of path) {
    const fragment = made(here as object);
    here = ((fragment ? fragment.values : here) as Record<string, unknown>)[key];
  }
  return here;
}

// A compiled parameter with the call's leaves in place of its placeholders (an array parameter, a text[]
// column's value, holds one per item).
function parameterFor(fixed: unknown, values: unknown): unknown {
  if (fixed instanceof Placeholder) return at(values, fixed.path);
  if (Array.isArray(fixed) && fixed.some((p) => p instanceof Placeholder)) return fixed.map((p) => parameterFor(p, values));
  return fixed;
}

export interface ShapedStatement<Values, Row> {
  run(db: SqlDb, values: Values): Promise<QueryResult<Row>>;
  // The SQL text for these values (tests compare it with the statement built per call).
  sql(db: SqlDb, values: Values): string;
}

export function shapedStatement<Values extends object, Row>(build: (db: SqlDb, values: Values) => Compilable<Row>): ShapedStatement<Values, Row> {
  const compiled = new Map<string, CompiledQuery<Row>>();
  const compile = (db: SqlDb, values: Values): CompiledQuery<Row> => {
    const shape = shapeOf(values);
    if (shape === null) return build(db, values).compile();
    let query = compiled.get(shape);
    if (query) return { ...query, parameters: query.parameters.map((p) => parameterFor(p, values)) };
    query = build(db, masked(values, []) as Values).compile();
    if (compiled.size < MAX_SHAPES) compiled.set(shape, query);
    return { ...query, parameters: query.parameters.map((p) => parameterFor(p, values)) };
  };
  return {
    run: async (db, values) => await db.executeQuery<Row>(compile(db, values)),
    sql: (db, values) => compile(db, values).sql,
  };
}
