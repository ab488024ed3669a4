// One GraphQL operation cannot ask for unbounded work: tokens, depth, aliases, directives and cost are
// limited, each refusal is coded, and production answers do not spell out the schema in suggestions.
import { describe, expect, it } from 'vitest';
import { createGraphQLServer } from '../src/graphql/yoga.js';
import { GRAPHQL_LIMITS } from '../src/graphql/limits.js';
import { createLogger } from '../src/logger.js';
import { test } from './support/fixtures.js';
import type { TestServer } from './support/server.js';

let server: TestServer;

test.beforeAll(async ({ server: s, owner }) => {
  server = s;
  await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Findable', endpoint: 'http://127.0.0.1:9/x', capabilities: ['find'] } });
});

type GraphQLAnswer = { status: number; body: { data?: unknown; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> } };

async function run(query: string): Promise<GraphQLAnswer> {
  const res = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
  return { status: res.status, body: await res.json() };
}

function expectRefused(answer: GraphQLAnswer, message: RegExp) {
  expect(answer.status).not.toBe(500);
  expect(answer.body.data ?? null).toBeNull();
  expect(answer.body.errors?.[0]?.extensions?.code).toBe('QUERY_TOO_COMPLEX');
  expect(answer.body.errors?.[0]?.message).toMatch(message);
}

const aliased = (n: number, selection: string) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${selection}`).join(' ')} }`;

describe('limits', () => {
  it(`refuses more than ${GRAPHQL_LIMITS.aliases} aliases (300 aliased discover searches)`, async () => {
    // 300 of them are also over the token limit, which is checked first, while parsing.
    expectRefused(await run(aliased(300, 'discover { total }')), /limit/);
    expectRefused(await run(aliased(GRAPHQL_LIMITS.aliases + 1, 'discover { total }')), /Aliases limit of 15 exceeded, found 16/);
    const within = await run(aliased(GRAPHQL_LIMITS.aliases, 'discover { total }'));
    expect(within.body.errors).toBeUndefined();
    expect(within.body.data).toMatchObject({ a0: { total: 1 } });
  });

  it(`refuses a selection deeper than ${GRAPHQL_LIMITS.depth}`, async () => {
    const nest = (n: number) => '{ ...on Query '.repeat(n) + '{ discover { total } }' + ' }'.repeat(n);
    expectRefused(await run(nest(GRAPHQL_LIMITS.depth + 2)), /depth limit of 10 exceeded/);
    expect((await run(nest(3))).body.errors).toBeUndefined();
  });

  it(`refuses a document of more than ${GRAPHQL_LIMITS.tokens} tokens`, async () => {
    expectRefused(await run(`{ discover { ${'total '.repeat(GRAPHQL_LIMITS.tokens)}} }`), /Token limit of 1000 exceeded/);
  });

  it(`refuses more than ${GRAPHQL_LIMITS.directives} directives`, async () => {
    expectRefused(await run(`{ ${'__typename @skip(if: false) '.repeat(GRAPHQL_LIMITS.directives + 1)}}`), /Directives limit of 20 exceeded/);
  });

  it(`refuses an operation whose cost is over ${GRAPHQL_LIMITS.cost}, within the other limits`, async () => {
    const detail = 'discover { data { id name slug description protocols categories capabilities tags endpoint docsUrl authType version status stats { recentTasks successRate } } total }';
    expectRefused(await run(aliased(14, detail)), /Query Cost limit of 600 exceeded/);
    expect((await run(aliased(2, detail))).body.errors).toBeUndefined();
  });
});

describe('suggestions', () => {
  const yoga = (production: boolean) => createGraphQLServer({ services: server.app.services, verifyJwt: null, logger: createLogger('silent'), production }).yoga;
  const ask = async (production: boolean, query: string) => {
    const res = await yoga(production).fetch('http://local/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    return (await res.json()) as GraphQLAnswer['body'];
  };

  it('are given outside production and left out in production', async () => {
    for (const query of ['{ discovr { total } }', '{ discover(sort: relevanc) { total } }', '{ discover { totl } }']) {
      const dev = await ask(false, query);
      expect(dev.errors?.[0]?.message).toMatch(/Did you mean/);
      const prod = await ask(true, query);
      expect(prod.errors?.length).toBeGreaterThan(0);
      expect(prod.errors![0]!.message).not.toMatch(/Did you mean|discover"|relevance|total"/);
      expect(prod.errors![0]!.message).toMatch(/Cannot query field|not exist|Value/);
    }
  });
});
