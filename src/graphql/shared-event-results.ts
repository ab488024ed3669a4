// One execution per event for every subscriber that would get the same answer. A subscription's source
// stream yields event objects, and the event bus hands one event to all its subscribers as the same
// object; subscribers with the same document, variables and result scope (who is asking, see
// schema/context.ts) share the execution of that event instead of each running its selection again.
// Without it, one event to 10 000 subscribers of a task is 10 000 executions of the same selection.
import { createSourceEventStream, execute, type DocumentNode, type ExecutionArgs, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { resultScope, type Context } from '../schema/context.js';

type Results = AsyncIterableIterator<ExecutionResult>;

const documentIds = new WeakMap<DocumentNode, number>();
let lastDocumentId = 0;
const documentId = (document: DocumentNode) => {
  let id = documentIds.get(document);
  if (id === undefined) documentIds.set(document, (id = ++lastDocumentId));
  return id;
};

// Per event, the results by sharing key. Held as long as the event object is (until every subscriber
// has moved past it).
const resultsOf = new WeakMap<object, Map<string, Promise<ExecutionResult>>>();

function resultFor(event: unknown, key: string, args: ExecutionArgs): Promise<ExecutionResult> {
  const run = () => Promise.resolve(execute({ ...args, rootValue: event }));
  if (typeof event !== 'object' || event === null) return run();
  let byKey = resultsOf.get(event);
  if (!byKey) resultsOf.set(event, (byKey = new Map()));
  let result = byKey.get(key);
  if (!result) byKey.set(key, (result = run()));
  return result;
}

// The source stream mapped to results. An iterator, not an async generator: a generator would hold
// back return() (a client unsubscribing) until the next event arrived.
function mapEvents(source: AsyncIterator<unknown>, key: string, args: ExecutionArgs): Results {
  const map = async (step: IteratorResult<unknown>): Promise<IteratorResult<ExecutionResult>> =>
    step.done ? { done: true, value: undefined } : { done: false, value: await resultFor(step.value, key, args) };
  return {
    next: () => source.next().then(map),
    return: async () => (await source.return?.(), { done: true, value: undefined }),
    throw: async (error) => (await source.return?.(), Promise.reject(error)),
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

async function sharedSubscribe(args: ExecutionArgs): Promise<Results | ExecutionResult> {
  const source = await createSourceEventStream(args);
  if (!(Symbol.asyncIterator in source)) return source;
  const key = [documentId(args.document), args.operationName ?? '', JSON.stringify(args.variableValues ?? {}), resultScope(args.contextValue as Context)].join('\n');
  return mapEvents(source[Symbol.asyncIterator](), key, args);
}

export function sharedEventResultsPlugin(): Plugin {
  return {
    onSubscribe({ setSubscribeFn }) {
      setSubscribeFn(sharedSubscribe as never);
    },
  };
}
