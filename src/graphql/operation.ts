// Runs one GraphQL operation of the service's own fixed documents (the REST table's, A2A's) without
// yoga's HTTP layer: each document is parsed and validated once through yoga's envelop pipeline (with
// every plugin's rules: the limits, the hidden suggestions), and each run is what the pipeline's
// execution does for such a document, called directly: the input guard's check of the variables, graphql-js's
// execution, and the same error masking as /graphql. The pipeline's per-run work (its hooks, the
// orchestration of its plugins, a normalized executor for streams) answers nothing here and cost more
// of a REST request than the execution itself.
import { execute, type DocumentNode, type GraphQLError, type GraphQLSchema } from 'graphql';
import type { Context } from '../schema/context.js';
import { unsafeOperation } from './input-guard.js';

export interface OperationResult {
  data?: unknown;
  errors?: ReadonlyArray<GraphQLError>;
}

export type RunOperation = (query: string, variables: Record<string, unknown>, context: Context) => Promise<OperationResult>;

interface Enveloped {
  schema: unknown;
  parse(source: string): unknown;
  validate(schema: unknown, document: unknown): ReadonlyArray<GraphQLError>;
}

// /graphql's error masking (graphql/yoga.ts): an AppError as it is, the request's own errors to the
// caller, anything else logged and answered as INTERNAL.
export type MaskError = (error: unknown, message: string) => Error;

// Documents parsed and validated, by their text: the callers run the REST table's fixed documents, so
// each is parsed and validated (with every plugin's rules) once, not on every request. Bounded like
// yoga's own cache, should a caller ever pass texts that vary.
const MAX_PREPARED = 1000;
// The message an unexpected error is masked with (yoga's default; the mask answers 'internal error').
const UNEXPECTED = 'Unexpected error.';

export function operationRunner(yoga: { getEnveloped(initial: object): Enveloped }, maskError: MaskError): RunOperation {
  let enveloped: Enveloped | null = null;
  const prepared = new Map<string, { document: DocumentNode } | { errors: ReadonlyArray<GraphQLError> }>();
  const masked = (errors: ReadonlyArray<GraphQLError>) => errors.map((error) => maskError(error, UNEXPECTED) as GraphQLError);
  return async (query, variables, contextValue) => {
    enveloped ??= yoga.getEnveloped({});
    const { schema, parse, validate } = enveloped;
    let ready = prepared.get(query);
    if (!ready) {
      const document = parse(query) as DocumentNode;
      const errors = validate(schema, document);
      ready = errors.length > 0 ? { errors } : { document };
      if (prepared.size < MAX_PREPARED) prepared.set(query, ready);
    }
    if ('errors' in ready) return { errors: ready.errors };
    // The input guard's refusal, as the pipeline's onExecute hook answers it (graphql/input-guard.ts).
    const problem = unsafeOperation({ document: ready.document, variableValues: variables });
    if (problem) return { errors: masked([problem]) };
    const result = await execute({ schema: schema as GraphQLSchema, document: ready.document, variableValues: variables, contextValue });
    return result.errors ? { data: result.data, errors: masked(result.errors) } : { data: result.data };
  };
}
