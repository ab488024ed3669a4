// Refuses GraphQL operations whose input PostgreSQL cannot store or that is nested too deep to handle
// (see services/unsafe-input.ts), before any resolver runs. Variables and literals in the document are both
// checked, for queries, mutations and subscriptions (HTTP, SSE and WebSocket alike).
import { Kind, visit, type ASTNode, type DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { invalid, type AppError } from '../errors.js';
import { MAX_INPUT_DEPTH, unsafeInput } from '../services/unsafe-input.js';

const isNamedInput = (n: unknown): n is { kind: Kind.ARGUMENT | Kind.OBJECT_FIELD; name: { value: string } } =>
  typeof n === 'object' && n !== null && ((n as ASTNode).kind === Kind.ARGUMENT || (n as ASTNode).kind === Kind.OBJECT_FIELD);

function unsafeLiteral(document: DocumentNode): AppError | null {
  let problem: AppError | null = null;
  const fieldOf = (ancestors: ReadonlyArray<unknown>) => ancestors.filter(isNamedInput).map((n) => n.name.value).join('.') || 'query';
  visit(document, {
    StringValue(node, _key, parent, _path, ancestors) {
      problem ??= unsafeInput(node.value, fieldOf([...ancestors, parent]));
    },
    ListValue: { enter: checkDepth },
    ObjectValue: { enter: checkDepth },
  });
  function checkDepth(_node: unknown, _key: unknown, parent: unknown, _path: unknown, above: ReadonlyArray<unknown>) {
    const ancestors = [...above, parent];
    const depth = ancestors.filter((n) => (n as ASTNode | undefined)?.kind === Kind.LIST || (n as ASTNode | undefined)?.kind === Kind.OBJECT).length;
    if (depth >= MAX_INPUT_DEPTH) problem ??= invalid(fieldOf(ancestors), `${fieldOf(ancestors)} is nested more than ${MAX_INPUT_DEPTH} levels deep`);
  }
  return problem;
}

// The parse cache answers the same document object for the same text, so a document's literals are
// walked once, not on every request that sends it.
const literalProblems = new WeakMap<DocumentNode, AppError | null>();

function unsafeLiteralOnce(document: DocumentNode): AppError | null {
  let problem = literalProblems.get(document);
  if (problem === undefined) literalProblems.set(document, (problem = unsafeLiteral(document)));
  return problem;
}

export function unsafeOperation(args: { document: DocumentNode; variableValues?: Record<string, unknown> | null }): AppError | null {
  return unsafeInput(args.variableValues ?? null, '') ?? unsafeLiteralOnce(args.document);
}

export function inputGuardPlugin(): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const problem = unsafeOperation(args);
      if (problem) setResultAndStopExecution({ errors: [problem] });
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const problem = unsafeOperation(args);
      if (problem) setResultAndStopExecution({ errors: [problem] });
    },
  };
}
