// A transaction that can schedule work for after it commits (live events): nothing is announced for a
// change that was rolled back. Kysely's transaction on its own pool (`deps.sql`): the stores' statements
// go to `pg` with no other layer between.
import type { Sql, SqlTx } from './kysely.js';

export type AfterCommit = (work: () => Promise<void> | void) => void;

export async function withTransaction<T>(
  sql: Sql,
  work: (tx: SqlTx, afterCommit: AfterCommit) => Promise<T>,
  onAfterCommitError?: (error: unknown) => void,
): Promise<T> {
  const pending: Array<() => Promise<void> | void> = [];
  const result = await sql.transaction().execute((tx) => work(tx, (fn) => pending.push(fn)));
  for (const fn of pending) {
    try {
      await fn();
    } catch (error) {
      onAfterCommitError?.(error);
    }
  }
  return result;
}
