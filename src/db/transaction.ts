// A transaction that can schedule work for after it commits (live events): nothing is announced for a
// change that was rolled back.
import type { PrismaClient, Tx } from './client.js';

export type AfterCommit = (work: () => Promise<void> | void) => void;

export async function withTransaction<T>(
  prisma: PrismaClient,
  work: (tx: Tx, afterCommit: AfterCommit) => Promise<T>,
  onAfterCommitError?: (error: unknown) => void,
): Promise<T> {
  const pending: Array<() => Promise<void> | void> = [];
  const result = await prisma.$transaction((tx) => work(tx, (fn) => pending.push(fn)), { timeout: 15_000, maxWait: 10_000 });
  for (const fn of pending) {
    try {
      await fn();
    } catch (error) {
      onAfterCommitError?.(error);
    }
  }
  return result;
}
