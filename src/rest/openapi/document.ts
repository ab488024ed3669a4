// The OpenAPI 3.1 document of everything the router serves (http/router.ts servedOperations: its routes,
// GraphQL over HTTP, MCP and A2A), served at GET /v1/openapi.json.
// Each route brings its operation; REST's are built from the route table: parameters and bodies from
// their GraphQL variables, answers from their response shapes over the documents' selection sets.
import type { GraphQLSchema } from 'graphql';
import type { Route } from '../route.js';
import { openApiPath, type HttpRoute } from '../../http/route.js';
import { shapeSchema } from '../shape.js';
import { SchemaComponents, type JsonSchema } from './json-schema.js';
import { addZodLimits } from './constraints.js';

// What the document needs of a route.
export type DocumentedRoute = Pick<HttpRoute, 'method' | 'path' | 'openapi' | 'claims'>;

// A route of the REST table as the document takes it.
export const documentedRest = (route: Route): DocumentedRoute => ({
  method: route.method,
  path: route.path,
  openapi: (components) => restOperation(route, components),
});

const ERROR_STATUSES: Record<string, string> = {
  '400': 'A field or parameter is wrong (INVALID_INPUT; `field` names it)',
  '401': 'No credentials, or credentials that do not verify (UNAUTHENTICATED)',
  '403': 'The resource is someone else’s (FORBIDDEN)',
  '404': 'Unknown id or path (NOT_FOUND)',
  '409': 'The state does not allow it (CONFLICT; task conflicts add `status`)',
  '413': 'Body over 1 MiB (PAYLOAD_TOO_LARGE)',
  '415': 'A body that is not JSON (UNSUPPORTED_MEDIA_TYPE)',
  '429': 'Over the rate limit (RATE_LIMITED); Retry-After says when to come back',
};

const ERROR_ENVELOPE: JsonSchema = {
  type: 'object',
  properties: {
    error: {
      type: 'object',
      properties: {
        code: { type: 'string', description: 'Stable machine-readable code, e.g. INVALID_INPUT' },
        message: { type: 'string' },
        field: { type: 'string', description: 'The field or parameter at fault (400)' },
      },
      required: ['code', 'message'],
      // Some errors add facts beside code and message, such as a task's current `status`.
      additionalProperties: true,
    },
  },
  required: ['error'],
  additionalProperties: false,
};

const operationId = (route: Route) => (route.document.definitions[0] as { name?: { value: string } }).name?.value.replace(/^Rest/, '');

// The operation of a route of the REST table.
export function restOperation(route: Route, components: SchemaComponents): Record<string, unknown> {
  const parameters: unknown[] = [...route.path.matchAll(/:(\w+)/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
  for (const [name, variable] of Object.entries(route.request?.query ?? {})) {
    const { schema } = components.variable(route.document, variable);
    const list = (schema.type === 'array' || (schema.anyOf as JsonSchema[] | undefined)?.some((s) => s.type === 'array')) ?? false;
    parameters.push({ name, in: 'query', required: false, schema, ...(list ? { style: 'form', explode: true } : {}) });
  }
  if (route.idempotent) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      schema: { type: 'string', maxLength: 255 },
      description: 'A repeat with the same key within 24 hours answers with the first response (Idempotent-Replayed: true)',
    });
  }
  const operation: Record<string, unknown> = {
    operationId: operationId(route),
    summary: route.summary,
    tags: [route.path.split('/')[2]],
    ...(route.public ? { security: [] } : {}),
    ...(parameters.length ? { parameters } : {}),
    responses: {
      [String(route.answer.status ?? 200)]: {
        description: route.summary,
        content: { 'application/json': { schema: shapeSchema(route.answer.body, route.document, components) } },
      },
      ...Object.fromEntries(Object.keys(ERROR_STATUSES).map((status) => [status, { $ref: `#/components/responses/Error${status}` }])),
      default: { $ref: '#/components/responses/Error' },
    },
  };
  const body = requestBody(route, components);
  if (body) operation.requestBody = { required: route.request?.body === 'input', content: { 'application/json': { schema: body } } };
  return operation;
}

export function buildOpenApiDocument(opts: { schema: GraphQLSchema; routes: DocumentedRoute[]; serverUrl?: string }) {
  const components = new SchemaComponents(opts.schema);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of opts.routes) {
    const operations = (paths[openApiPath(route.path)] ??= {});
    const method = route.method.toLowerCase();
    // Routes that share a method and path (a signed link beside the signed-in form) are one operation:
    // the route that answers every request there states it, not the one that claims some of them.
    if (operations[method] && route.claims) continue;
    operations[method] = typeof route.openapi === 'function' ? route.openapi(components) : route.openapi;
  }

  addZodLimits(components.schemas, opts.schema);

  return {
    openapi: '3.1.0',
    info: {
      title: 'Task marketplace API',
      version: '1',
      description:
        'The HTTP interface: REST (/v1), signing in, OAuth, files, webhooks, health and metrics, and the endpoints of GraphQL (/graphql), MCP (/mcp) and A2A (/a2a), whose own wire formats (GraphQL, JSON-RPC) are described by their specifications. Each operation of the REST table runs a GraphQL document on /graphql; the fields of its answer are that document’s selection.',
    },
    ...(opts.serverUrl ? { servers: [{ url: opts.serverUrl }] } : {}),
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'An API key (tmk_…) or an access token of the configured identity provider' },
        metricsToken: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN, when set (only for /metrics)' },
        taskToken: { type: 'apiKey', in: 'header', name: 'X-Task-Token', description: 'The task token a delivery carries (also accepted as Authorization: Bearer)' },
      },
      schemas: { ...components.schemas, Error: ERROR_ENVELOPE },
      responses: {
        Error: { description: 'An error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        ...Object.fromEntries(
          Object.entries(ERROR_STATUSES).map(([status, description]) => [
            `Error${status}`,
            {
              description,
              ...(status === '429' ? { headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait' } } } : {}),
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
            },
          ]),
        ),
      },
    },
  };
}

// The body: the whole of $input, or fields named after the document's variables.
function requestBody(route: Route, components: SchemaComponents): JsonSchema | null {
  const body = route.request?.body;
  if (!body) return null;
  if (body === 'input') return components.variable(route.document, 'input').schema;
  const fields = body.map((name) => ({ name, ...components.variable(route.document, name) }));
  return {
    type: 'object',
    properties: Object.fromEntries(fields.map((f) => [f.name, f.schema])),
    required: fields.filter((f) => f.required).map((f) => f.name),
  };
}
