// Runs one GraphQL operation through yoga's envelop pipeline (the plugins /graphql has: the limits, the
// input guard, error masking, the parse and validation caches) without its HTTP layer. The REST adapter
// runs its fixed documents this way: through yoga.fetch, each /v1 request built a fetch Request, wrote
// its variables as JSON for yoga to read back, and read yoga's JSON answer back again, which took about
// a third of the service's own CPU time per search.
import type { ExecutionResult, GraphQLError } from 'graphql';
import type { Context } from '../schema/context.js';

export interface OperationResult {
  data?: unknown;
  errors?: ReadonlyArray<GraphQLError>;
}

export type RunOperation = (query: string, variables: Record<string, unknown>, context: Context) => Promise<OperationResult>;

interface Enveloped {
  schema: unknown;
  parse(source: string): unknown;
  validate(schema: unknown, document: unknown): ReadonlyArray<GraphQLError>;
  execute(args: { schema: unknown; document: unknown; variableValues: Record<string, unknown>; contextValue: Context }): unknown;
}

const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> =>
  typeof value === 'object' && value !== null && Symbol.asyncIterator in value;

// Documents parsed and validated, by their text: the callers run the REST table's fixed documents, so
// each is parsed and validated (with every plugin's rules) once, not on every request. Bounded like
// yoga's own cache, should a caller ever pass texts that vary.
const MAX_PREPARED = 1000;

export function operationRunner(yoga: { getEnveloped(initial: object): Enveloped }): RunOperation {
  // The pipeline's functions do not depend on the request (the context is the caller's); taken once.
  let enveloped: Enveloped | null = null;
  const prepared = new Map<string, { document: unknown } | { errors: ReadonlyArray<GraphQLError> }>();
  return async (query, variables, contextValue) => {
    enveloped ??= yoga.getEnveloped({});
    const { schema, parse, validate, execute } = enveloped;
    let ready = prepared.get(query);
    if (!ready) {
      const document = parse(query);
      const errors = validate(schema, document);
      ready = errors.length > 0 ? { errors } : { document };
      if (prepared.size < MAX_PREPARED) prepared.set(query, ready);
    }
    if ('errors' in ready) return { errors: ready.errors };
    const result = await execute({ schema, document: ready.document, variableValues: variables, contextValue });
    // Subscriptions and incremental delivery answer a stream; the REST documents are queries and mutations.
    if (isAsyncIterable(result)) throw new Error('a streaming operation cannot answer a REST request');
    return result as ExecutionResult;
  };
}
