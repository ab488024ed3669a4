// The stores' SQL builder: Kysely over its own `pg` pool, typed by the tables of prisma/schema.prisma
// (src/generated/kysely/types.ts, `npm run generate:kysely`). Identifiers are written in camelCase as in
// the Prisma models; the plugin maps them to the snake_case columns and back.
import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import type { DB } from '../generated/kysely/types.js';
import { CamelCaseRows } from './camel-case-rows.js';
import { queryDescribedOnce, type Descriptions } from './described-statements.js';
import { statementNamer } from './statement-names.js';

export type { DB };
export type Sql = Kysely<DB>;
export type SqlTx = Transaction<DB>;
// Stores take either the database or an open transaction.
export type SqlDb = Sql | SqlTx;

// Sends Kysely's statements on `client` as named prepared statements (statement-names.ts): parsed,
// planned and described once per connection (described-statements.ts), then only bound and executed;
// their rows come with the keys `keyOf` gives the columns. Kysely calls query(text, parameters).
function nameStatements(client: pg.PoolClient, nameOf: ReturnType<typeof statementNamer>, keyOf: (column: string) => string): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const descriptions: Descriptions = new Map();
  client.query = ((config: unknown, ...rest: unknown[]) => {
    const [values] = rest;
    if (typeof config === 'string' && rest.length === 1 && Array.isArray(values)) {
      const name = nameOf({ sql: config });
      if (name) return queryDescribedOnce(client, descriptions, { name, text: config, values }, keyOf);
    }
    return query(config, ...rest);
  }) as typeof client.query;
}

// How long a statement may run, or a transaction sit idle between its statements, on a PostgreSQL server
// before the server ends it: a stuck lock or a stalled caller must not hold a connection of the pool for
// good. The caller gets a 503 (db/errors.ts) and the transaction is rolled back whole.
export const SERVER_TIMEOUT_MS = 15_000;

// `preparedStatements`: on a PostgreSQL server that keeps them per connection (DATABASE_PREPARED_STATEMENTS).
// `server`: a PostgreSQL server, not the embedded database (which serves one session and takes no
// startup settings): statements and idle transactions end after `timeoutMs`.
// `genericPlans`: on a server, the connections plan each prepared statement once, for any parameters
// (plan_cache_mode = force_generic_plan; an `options` parameter in the URL takes precedence).
export function createKysely(
  connectionString: string,
  poolSize = 10,
  opts: { preparedStatements?: boolean; server?: boolean; timeoutMs?: number; genericPlans?: boolean } = {},
): Sql {
  const timeoutMs = opts.timeoutMs ?? SERVER_TIMEOUT_MS;
  const pool = new pg.Pool({
    connectionString,
    max: poolSize,
    ...(opts.server ? { statement_timeout: timeoutMs, idle_in_transaction_session_timeout: timeoutMs } : {}),
    ...(opts.server && opts.genericPlans ? { options: '-c plan_cache_mode=force_generic_plan' } : {}),
  });
  // A connection the server ends while it is checked out (an idle transaction past its time) fails the
  // statement that uses it; the client's own error event must not end the process.
  pool.on('connect', (client) => client.on('error', () => undefined));
  // Column names only: the keys inside a JSON value (a task's input, an agent's schema) are the user's
  // and come back as they were written.
  const camelCase = new CamelCaseRows();
  if (opts.preparedStatements) {
    const nameOf = statementNamer();
    const keyOf = (column: string) => camelCase.keyOf(column);
    pool.on('connect', (client) => nameStatements(client, nameOf, keyOf));
  }
  // An idle connection the database closed (a restart, an outage) is dropped by the pool and replaced on
  // the next query, which then reports any outage itself; unhandled, the event would end the process.
  pool.on('error', () => undefined);
  return new Kysely<DB>({
    dialect: new PostgresDialect({ pool }),
    plugins: [camelCase],
  });
}

// The connections the postgres search engine queries through (stores/search-store.ts). On a PostgreSQL
// server with prepared statements, a pool of its own whose statements always run their generic plan:
// PostgreSQL otherwise chose, statement by statement, to plan the most common search anew on every run,
// which took 0.2-0.3 ms, more than the search itself for a selective query, and gave the same plan (the
// GIN index's bitmap scan). Elsewhere (PGlite, or behind a pooler without prepared statements) `main`.
export function createSearchSql(connectionString: string, poolSize: number | undefined, main: Sql, preparedStatements: boolean): Sql {
  if (!preparedStatements) return main;
  return createKysely(connectionString, poolSize, { preparedStatements: true, server: true, genericPlans: true });
}

// Closes each pool once (the search's may be the main one).
export async function destroyPools(...pools: Sql[]): Promise<void> {
  await Promise.all([...new Set(pools)].map((p) => p.destroy()));
}
