// Bounds on what one GraphQL operation may ask for, so a single request cannot occupy the server (300
// aliased `discover` searches took 2.8 s). The REST documents stay far inside them: the largest has 112
// tokens, depth 6 and cost 178.
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { costLimitPlugin } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';

export const GRAPHQL_LIMITS = {
  tokens: 1000,
  depth: 10,
  aliases: 15,
  directives: 20,
  // graphql-armor's cost: 2 per object field and 1 per scalar field, times 1.5 per level of depth.
  cost: 600,
} as const;

// graphql-armor reports "Syntax Error: …" without a code; the operation is refused with a coded error.
const refuse = [
  (_context: unknown, error: GraphQLError) => {
    throw new GraphQLError(error.message.replace(/^Syntax Error: /, ''), { extensions: { code: 'QUERY_TOO_COMPLEX' } });
  },
];

export function graphqlLimitPlugins(): Plugin[] {
  return [
    maxTokensPlugin({ n: GRAPHQL_LIMITS.tokens, onReject: refuse }),
    maxDepthPlugin({ n: GRAPHQL_LIMITS.depth, onReject: refuse }),
    maxAliasesPlugin({ n: GRAPHQL_LIMITS.aliases, onReject: refuse }),
    maxDirectivesPlugin({ n: GRAPHQL_LIMITS.directives, onReject: refuse }),
    costLimitPlugin({ maxCost: GRAPHQL_LIMITS.cost, onReject: refuse }),
  ] as Plugin[];
}

// "Did you mean …?" in error messages spells out the schema field by field to anyone probing it;
// production answers leave it out.
export const withoutSuggestions = (message: string) => message.replace(/ ?Did you mean .+\?$/, '');

// Validation errors do not pass through yoga's error masking, so they are rewritten here. (graphql-armor's
// block-field-suggestions plugin does the same, but only for errors of its own copy of graphql.)
export function hideSuggestionsPlugin(): Plugin {
  return {
    onValidate: () => ({ valid, result, setResult }) => {
      if (valid) return;
      setResult(result.map((e) => new GraphQLError(withoutSuggestions(e.message), { nodes: e.nodes, source: e.source, positions: e.positions, path: e.path, extensions: e.extensions })));
    },
  };
}
