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

export function operationRunner(yoga: { getEnveloped(initial: object): Enveloped }): RunOperation {
  return async (query, variables, contextValue) => {
    const { schema, parse, validate, execute } = yoga.getEnveloped({});
    const document = parse(query);
    const errors = validate(schema, document);
    if (errors.length > 0) return { errors };
    const result = await execute({ schema, document, variableValues: variables, contextValue });
    // Subscriptions and incremental delivery answer a stream; the REST documents are queries and mutations.
    if (isAsyncIterable(result)) throw new Error('a streaming operation cannot answer a REST request');
    return result as ExecutionResult;
  };
}
