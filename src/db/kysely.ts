// The stores' SQL builder: Kysely over its own `pg` pool, typed by the tables of prisma/schema.prisma
// (src/generated/kysely/types.ts, `npm run generate:kysely`). Identifiers are written in camelCase as in
// the Prisma models; the plugin maps them to the snake_case columns and back.
import { CamelCasePlugin, Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import type { DB } from '../generated/kysely/types.js';
import { statementNamer } from './statement-names.js';

export type { DB };
export type Sql = Kysely<DB>;
export type SqlTx = Transaction<DB>;
// Stores take either the database or an open transaction.
export type SqlDb = Sql | SqlTx;

// Sends Kysely's statements on `client` as named prepared statements (statement-names.ts): parsed and
// planned once per connection, then only bound and executed. Kysely calls query(text, parameters).
function nameStatements(client: pg.PoolClient, nameOf: ReturnType<typeof statementNamer>): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((config: unknown, ...rest: unknown[]) => {
    const [values] = rest;
    if (typeof config === 'string' && rest.length === 1 && Array.isArray(values)) {
      const name = nameOf({ sql: config });
      if (name) return query({ name, text: config, values });
    }
    return query(config, ...rest);
  }) as typeof client.query;
}

// `preparedStatements`: on a PostgreSQL server that keeps them per connection (DATABASE_PREPARED_STATEMENTS).
export function createKysely(connectionString: string, poolSize = 10, opts: { preparedStatements?: boolean } = {}): Sql {
  const pool = new pg.Pool({ connectionString, max: poolSize });
  if (opts.preparedStatements) {
    const nameOf = statementNamer();
    pool.on('connect', (client) => nameStatements(client, nameOf));
  }
  // An idle connection the database closed (a restart, an outage) is dropped by the pool and replaced on
  // the next query, which then reports any outage itself; unhandled, the event would end the process.
  pool.on('error', () => undefined);
  return new Kysely<DB>({
    dialect: new PostgresDialect({ pool }),
    plugins: [new CamelCasePlugin()],
  });
}
