// Runs one GraphQL operation of the service's own fixed documents (the REST table's, A2A's) without
// yoga's HTTP layer: each document is parsed and validated once through yoga's envelop pipeline (with
// every plugin's rules: the limits, the hidden suggestions), and each run is what the pipeline's
// execution does for such a document, called directly: the input guard's check of the variables, the
// execution, and the same error masking as /graphql. The pipeline's per-run work (its hooks, the
// orchestration of its plugins, a normalized executor for streams) answers nothing here and cost more
// of a REST request than the execution itself.
//
// The execution is graphql-jit's: it compiles a document once into a function that calls the schema's
// own resolvers, where graphql-js walks the document again on every run (collecting each object's
// fields, checking @skip/@include, coercing arguments), which was most of the execution's own cost.
// graphql-jit is loaded with the first run, not at start (it brings Ajv; src/load-package.ts).
import {
  execute,
  getNamedType,
  GraphQLError,
  isObjectType,
  isScalarType,
  isSpecifiedScalarType,
  Kind,
  type DocumentNode,
  type ExecutionResult,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLScalarType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { CompiledQuery } from 'graphql-jit';
import { lazyImport } from '../load-package.js';
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

// A compiled document's run (graphql-jit's CompiledQuery.query).
type CompiledRun = CompiledQuery['query'];
type Prepared = { errors: ReadonlyArray<GraphQLError> } | { document: DocumentNode; compiled: CompiledRun | null };

const loadJit = lazyImport(() => import('graphql-jit'));

export function operationRunner(yoga: { getEnveloped(initial: object): Enveloped }, maskError: MaskError): RunOperation {
  let enveloped: Enveloped | null = null;
  const prepared = new Map<string, Prepared>();
  const masked = (errors: ReadonlyArray<GraphQLError>) => errors.map((error) => maskError(error, UNEXPECTED) as GraphQLError);

  async function prepare(query: string): Promise<Prepared> {
    enveloped ??= yoga.getEnveloped({});
    const { schema, parse, validate } = enveloped;
    const document = parse(query) as DocumentNode;
    const errors = validate(schema, document);
    if (errors.length > 0) return { errors };
    return { document, compiled: await compiled(schema as GraphQLSchema, document) };
  }

  return async (query, variables, contextValue) => {
    let ready = prepared.get(query);
    if (!ready) {
      ready = await prepare(query);
      if (prepared.size < MAX_PREPARED) prepared.set(query, ready);
    }
    if ('errors' in ready) return { errors: ready.errors };
    // The input guard's refusal, as the pipeline's onExecute hook answers it (graphql/input-guard.ts).
    const problem = unsafeOperation({ document: ready.document, variableValues: variables });
    if (problem) return { errors: masked([problem]) };
    const result: ExecutionResult = ready.compiled
      ? await ready.compiled(undefined, contextValue, variables)
      : await execute({ schema: enveloped!.schema as GraphQLSchema, document: ready.document, variableValues: variables, contextValue });
    if (!result.errors) return { data: result.data };
    return { data: result.data, errors: masked(ready.compiled ? result.errors.map(asGraphQLJsError) : result.errors) };
  };
}

// The document compiled, or null where graphql-js runs it: a subscription (yoga serves those), what
// graphql-jit cannot compile, and a relation selected beneath a relation (below).
async function compiled(schema: GraphQLSchema, document: DocumentNode): Promise<CompiledRun | null> {
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (!operation || operation.operation === 'subscription' || relationBeneathRelation(schema, document, operation)) return null;
  const { compileQuery, isCompiledQuery } = await loadJit();
  const result = compileQuery(schema, document, undefined, { customSerializers: markedCustomScalars(schema) });
  return isCompiledQuery(result) ? result.query : null;
}

// The Prisma plugin finds what a relation's parent was loaded with by graphql-js's response path
// objects, which graphql-jit makes anew for each field: a relation's own relations would each be read
// again instead of answered from the parent's query. None of the fixed documents selects one; one that
// did would run on graphql-js rather than cost statements.
function relationBeneathRelation(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): boolean {
  const fragments = new Map(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
  );
  const walk = (type: GraphQLObjectType, set: SelectionSetNode, beneath: boolean): boolean =>
    set.selections.some((s) => {
      if (s.kind === Kind.FRAGMENT_SPREAD) return walk(type, fragments.get(s.name.value)!.selectionSet, beneath);
      if (s.kind === Kind.INLINE_FRAGMENT) return walk(type, s.selectionSet, beneath);
      const field = type.getFields()[s.name.value];
      // The plugin's mark of a field answered from what its parent was loaded with (a relation, a `select`).
      const relation = Boolean(field?.extensions?.pothosPrismaSelect);
      if (relation && beneath) return true;
      const fieldType = field && getNamedType(field.type);
      return s.selectionSet !== undefined && isObjectType(fieldType) && walk(fieldType, s.selectionSet, beneath || relation);
    });
  const root = operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  return root ? walk(root, operation.selectionSet, false) : false;
}

// graphql-jit keeps only the message of a scalar's failure to serialize; graphql-js keeps what was
// thrown, which the mask judges: a built-in scalar's (or an enum's) GraphQLError is the request's own,
// a custom scalar's error an unexpected one. Custom scalars' failures are marked to tell them apart.
const CUSTOM_SCALAR_FAILED = '\u0000custom scalar: ';

function markedCustomScalars(schema: GraphQLSchema): Record<string, (value: unknown) => unknown> {
  const custom = Object.values(schema.getTypeMap()).filter((t): t is GraphQLScalarType => isScalarType(t) && !isSpecifiedScalarType(t));
  return Object.fromEntries(
    custom.map((t) => [
      t.name,
      (value: unknown) => {
        try {
          return t.serialize(value);
        } catch (error) {
          throw new Error(CUSTOM_SCALAR_FAILED + (error instanceof Error ? error.message : String(error)));
        }
      },
    ]),
  );
}

// graphql-jit's error as graphql-js makes it: a resolver's error keeps its cause either way; an error
// of the execution itself (a null in a non-null field, a value a custom scalar cannot represent) has an
// Error as its cause in graphql-js, so the mask logs it and answers INTERNAL.
function asGraphQLJsError(error: GraphQLError): GraphQLError {
  if (error.originalError || !error.path) return error;
  const { message, path } = error;
  const ownFailure = message.startsWith(CUSTOM_SCALAR_FAILED);
  if (!ownFailure && !message.startsWith('Cannot return null for non-nullable field') && !message.startsWith('Expected a value of type')) return error;
  const cause = new Error(ownFailure ? message.slice(CUSTOM_SCALAR_FAILED.length) : message);
  return new GraphQLError(cause.message, { path, originalError: cause });
}
