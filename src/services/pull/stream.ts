// The held stream of claims (a GraphQL subscription over WebSocket or SSE): each next() hands out one
// claimed task, claiming (and waiting for work) when none is left over from the last claim. An iterator,
// not an async generator, so that the subscriber leaving ends a wait at once; tasks claimed but not yet
// handed out when it leaves are given back, so no lease is held for a connection that is gone.
import type { PullContext } from './context.js';
import { claimWaiting, type ClaimedTask } from './claim.js';
import { WAIT_SECONDS } from './limits.js';

export function claimStream(
  ctx: PullContext,
  agent: { id: string; maxConcurrentTasks: number | null },
  bounds: { max: number; leaseMs: number },
  giveBack: (taskId: string) => Promise<unknown>,
): AsyncIterableIterator<ClaimedTask> {
  const left: ClaimedTask[] = [];
  const leaving = new AbortController();
  const returnAll = async (tasks: ClaimedTask[]) => {
    for (const task of tasks.splice(0)) await giveBack(task.taskId).catch(() => {});
  };
  const done = (): IteratorResult<ClaimedTask> => ({ done: true, value: undefined });
  return {
    async next() {
      while (left.length === 0) {
        if (leaving.signal.aborted) return done();
        const claimed = await claimWaiting(ctx, agent, { ...bounds, waitMs: WAIT_SECONDS.max * 1000 }, leaving.signal);
        if (leaving.signal.aborted) {
          await returnAll(claimed);
          return done();
        }
        left.push(...claimed);
      }
      return { done: false, value: left.shift()! };
    },
    async return() {
      leaving.abort();
      await returnAll(left);
      return done();
    },
    async throw(error: unknown) {
      leaving.abort();
      await returnAll(left);
      throw error;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
