// Statements built and compiled by Kysely once, then run with new parameters: for the statements every
// request or job sends (the API key's look-up, a delivery's claim), building the query tree, the
// CamelCase plugin's copy of it and the compilation to SQL cost more of the service's CPU than sending
// the statement (docs/benchmarks.md, "The cost ledger").
//
// The builder gets `param(name)` where a value goes: a placeholder object that Kysely keeps as the
// statement's parameter, found again in the compiled parameters and replaced by the call's value. A
// placeholder must be a whole parameter (not spread into a list, not inside a JSON value), so a
// statement whose text depends on its values (an `in` list, optional columns) is not one for this.
import type { CompiledQuery, Compilable, QueryResult } from 'kysely';
import type { SqlDb } from './kysely.js';

class Placeholder {
  constructor(readonly name: string) {}
}

export type Param = <V>(name: string) => V;

export interface CompiledStatement<Values extends Record<string, unknown>, Row> {
  // Runs the statement on the database or a transaction, with these values.
  run(db: SqlDb, values: Values): Promise<QueryResult<Row>>;
  // The SQL text (tests compare it with the statement built per call).
  sql(db: SqlDb): string;
}

export function compiledStatement<Values extends Record<string, unknown>, Row>(
  build: (db: SqlDb, param: Param) => Compilable<Row>,
): CompiledStatement<Values, Row> {
  let compiled: { query: CompiledQuery<Row>; slots: (string | null)[] } | null = null;
  const compile = (db: SqlDb) => {
    if (compiled) return compiled;
    const query = build(db, (name) => new Placeholder(name) as never).compile();
    const slots = query.parameters.map((p) => (p instanceof Placeholder ? p.name : null));
    return (compiled = { query, slots });
  };
  return {
    async run(db, values) {
      const { query, slots } = compile(db);
      const parameters = query.parameters.map((fixed, i) => {
        const name = slots[i] ?? null;
        if (name === null) return fixed;
        if (!(name in values)) throw new Error(`compiled statement: no value for ${name}`);
        return values[name];
      });
      return await db.executeQuery<Row>({ ...query, parameters });
    },
    sql: (db) => compile(db).query.sql,
  };
}
