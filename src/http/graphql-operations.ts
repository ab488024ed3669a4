// GraphQL over HTTP at /graphql (graphql-yoga, mounted by http/router.ts) as the OpenAPI document states
// it: one endpoint whose operations are GraphQL documents, with GraphQL's own answer shape (`data` and
// `errors`), not the API's error envelope (x-error-format says so). Its schema is the SDL, not this document.
import type { HttpRoute } from './route.js';

type Documented = Pick<HttpRoute, 'method' | 'path' | 'openapi'>;

const GRAPHQL_RESPONSE = {
  type: 'object',
  properties: {
    data: { type: ['object', 'null'] },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        properties: { message: { type: 'string' }, path: { type: 'array' }, extensions: { type: 'object', description: '`code` is the stable machine-readable code' } },
        required: ['message'],
      },
    },
    extensions: { type: 'object' },
  },
};

const answers = {
  'application/graphql-response+json': { schema: GRAPHQL_RESPONSE },
  'application/json': { schema: GRAPHQL_RESPONSE },
};

const responses = (page: boolean) => ({
  '200': {
    description: 'The operation ran; GraphQL errors are in `errors`',
    content: {
      ...answers,
      'text/event-stream': { schema: { type: 'string', description: 'A subscription (Accept: text/event-stream): `next` events carry results, `complete` ends it' } },
      ...(page ? { 'text/html': { schema: { type: 'string', description: 'GraphiQL, for a browser, outside production' } } } : {}),
    },
  },
  '400': { description: 'The request is not a GraphQL request, or its document does not parse or validate', content: answers },
  '401': { $ref: '#/components/responses/Error401' },
  '429': { $ref: '#/components/responses/Error429' },
});

// The caller's credential is optional: public fields answer without one.
const security = [{ bearer: [] }, {}];

export const GRAPHQL_OPERATIONS: Documented[] = [
  {
    method: 'POST',
    path: '/graphql',
    openapi: {
      operationId: 'GraphQL',
      summary: 'Run a GraphQL query, mutation or subscription (SSE with Accept: text/event-stream)',
      tags: ['graphql'],
      'x-error-format': 'graphql',
      security,
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: { query: { type: 'string' }, variables: { type: 'object' }, operationName: { type: 'string' }, extensions: { type: 'object' } },
              required: ['query'],
            },
          },
        },
      },
      responses: responses(false),
    },
  },
  {
    method: 'GET',
    path: '/graphql',
    openapi: {
      operationId: 'GraphQLQuery',
      summary: 'Run a GraphQL query given in the URL (mutations need POST); outside production a browser is answered GraphiQL',
      tags: ['graphql'],
      'x-error-format': 'graphql',
      security,
      parameters: [
        { name: 'query', in: 'query', required: false, schema: { type: 'string' } },
        { name: 'variables', in: 'query', required: false, schema: { type: 'string' }, description: 'A JSON object' },
        { name: 'operationName', in: 'query', required: false, schema: { type: 'string' } },
      ],
      responses: responses(true),
    },
  },
];
