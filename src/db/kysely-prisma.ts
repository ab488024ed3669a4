// A store's Kysely statements run inside a transaction that Prisma opened, on that transaction's
// connection: the services' transactions are still Prisma's, and a Kysely transaction on `deps.sql` is
// another connection that must not take part in the same atomic change. Once a transaction moves to
// `deps.sql.transaction()`, the same store functions run on it unchanged (they take a `SqlDb`).
// Kysely compiles; Prisma sends the text and parameters (`$queryRawUnsafe`) and reads the rows back.
import {
  CamelCasePlugin,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from 'kysely';
import type { Db } from './client.js';
import type { DB, Sql } from './kysely.js';

const WRITES = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'MergeQueryNode']);

class PrismaConnection implements DatabaseConnection {
  constructor(private readonly db: Db) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const node = compiled.query as { kind: string; returning?: unknown };
    if (WRITES.has(node.kind) && !node.returning) {
      const count = await this.db.$executeRawUnsafe(compiled.sql, ...compiled.parameters);
      return { rows: [], numAffectedRows: BigInt(count) };
    }
    return { rows: await this.db.$queryRawUnsafe<R[]>(compiled.sql, ...compiled.parameters) };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported inside a Prisma transaction');
  }
}

class PrismaDriver implements Driver {
  constructor(private readonly db: Db) {}
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    return new PrismaConnection(this.db);
  }
  // The transaction is Prisma's: it was begun before and ends after the store's statements.
  async beginTransaction(): Promise<void> {
    throw new Error('open the transaction with Prisma or with deps.sql, not on a bridged Kysely');
  }
  async commitTransaction(): Promise<void> {}
  async rollbackTransaction(): Promise<void> {}
  async releaseConnection(): Promise<void> {}
  async destroy(): Promise<void> {}
}

const bridged = new WeakMap<Db, Sql>();

// The Kysely for a Prisma client or transaction (one per transaction, made on first use).
export function sqlIn(db: Db): Sql {
  let sql = bridged.get(db);
  if (!sql) {
    sql = new Kysely<DB>({
      dialect: {
        createAdapter: () => new PostgresAdapter(),
        createDriver: () => new PrismaDriver(db),
        createIntrospector: (k) => new PostgresIntrospector(k),
        createQueryCompiler: () => new PostgresQueryCompiler(),
      },
      plugins: [new CamelCasePlugin()],
    });
    bridged.set(db, sql);
  }
  return sql;
}
