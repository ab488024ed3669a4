// The stores' SQL builder: Kysely over its own `pg` pool, typed by the tables of prisma/schema.prisma
// (src/generated/kysely/types.ts, `npm run generate:kysely`). Identifiers are written in camelCase as in
// the Prisma models; the plugin maps them to the snake_case columns and back.
import { CamelCasePlugin, Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import type { DB } from '../generated/kysely/types.js';

export type { DB };
export type Sql = Kysely<DB>;
export type SqlTx = Transaction<DB>;
// Stores take either the database or an open transaction.
export type SqlDb = Sql | SqlTx;

export function createKysely(connectionString: string, poolSize = 10): Sql {
  const pool = new pg.Pool({ connectionString, max: poolSize });
  // An idle connection the database closed (a restart, an outage) is dropped by the pool and replaced on
  // the next query, which then reports any outage itself; unhandled, the event would end the process.
  pool.on('error', () => undefined);
  return new Kysely<DB>({
    dialect: new PostgresDialect({ pool }),
    plugins: [new CamelCasePlugin()],
  });
}
