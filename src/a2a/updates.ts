// The changes of one task, through the GraphQL subscription taskUpdated (same pipeline as /graphql:
// authorization, error masking): the task now, then after each change. A2A streams and blocking sends
// follow a task with it.
import type { ExecutionResult } from 'graphql';
import type { Context } from '../schema/context.js';
import type { OurTask } from './mapping.js';
import { TASK_SELECTION } from './operations.js';

interface Enveloped {
  schema: unknown;
  parse(source: string): unknown;
  validate(schema: unknown, document: unknown): ReadonlyArray<unknown>;
  subscribe(args: { schema: unknown; document: unknown; variableValues: Record<string, unknown>; contextValue: Context }): unknown;
}

const TASK_UPDATED = `subscription A2ATaskUpdated($id: ID!) { taskUpdated(id: $id) { ${TASK_SELECTION} } }`;

export type FollowTask = (id: string, context: Context, signal: AbortSignal) => AsyncGenerator<OurTask>;

const isAsyncIterable = (value: unknown): value is AsyncIterable<ExecutionResult> =>
  typeof value === 'object' && value !== null && Symbol.asyncIterator in value;

export class FollowError extends Error {
  constructor(readonly result: ExecutionResult) {
    super(result.errors?.[0]?.message ?? 'subscription failed');
  }
}

export function taskFollower(yoga: { getEnveloped(initial: object): Enveloped }): FollowTask {
  return async function* follow(id, contextValue, signal) {
    const { schema, parse, validate, subscribe } = yoga.getEnveloped({});
    const document = parse(TASK_UPDATED);
    const errors = validate(schema, document);
    if (errors.length) throw new Error(`A2A subscription document: ${String(errors[0])}`);
    const result = await subscribe({ schema, document, variableValues: { id }, contextValue });
    if (!isAsyncIterable(result)) throw new FollowError(result as ExecutionResult);
    const iterator = result[Symbol.asyncIterator]();
    const stop = () => void iterator.return?.();
    signal.addEventListener('abort', stop, { once: true });
    try {
      for (;;) {
        if (signal.aborted) return;
        const next = await iterator.next();
        if (next.done || signal.aborted) return;
        if (next.value.errors?.length) throw new FollowError(next.value);
        yield (next.value.data as { taskUpdated: OurTask }).taskUpdated;
      }
    } finally {
      signal.removeEventListener('abort', stop);
      await iterator.return?.();
    }
  };
}
