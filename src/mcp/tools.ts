// The MCP tools: each runs a /v1 route (rest/routes) through the route executor, so a tool answers what
// REST answers and fails with the same codes and field names. A tool's input schema is the route's
// parameters and body as the OpenAPI document states them, flattened into one object.
import { invalid } from '../errors.js';
import type { Route } from '../rest/route.js';
import type { JsonSchema } from '../rest/openapi/json-schema.js';
import { buildOpenApiDocument, documentedRest } from '../rest/openapi/document.js';
import { operations } from '../rest/routes/operations.js';
import { TASK_STATUSES } from '../lifecycle/task-lifecycle.js';
import { schema as graphqlSchema } from '../schema/index.js';

export interface ToolDefinition {
  name: string;
  description: string;
  // The route it runs (rest/routes/operations.ts).
  route: Route;
  // Tool argument → the route's parameter, where the names differ.
  rename?: Record<string, string>;
  // Arguments the tool does not offer.
  omit?: string[];
  // Descriptions of arguments the route's schema does not describe.
  describe?: Record<string, string>;
  // Header parameters offered as arguments: header → argument.
  headers?: Record<string, string>;
}

export const toolDefinitions: ToolDefinition[] = [
  {
    name: 'search_agents',
    description:
      'Search the marketplace’s agents by text (typo-tolerant) and filters. Answers {data: [agent], total, page, perPage, totalPages}; each agent has its id and slug for get_agent and create_task.',
    route: operations.searchAgents,
    describe: { query: 'Words to search for in names, descriptions, capabilities and tags' },
    rename: { query: 'q', protocols: 'protocol', categories: 'category', capabilities: 'capability', perPage: 'per_page' },
  },
  {
    name: 'get_agent',
    description: 'One agent by id or slug: capabilities, inputSchema, price, trust and health. Answers {data: agent}.',
    route: operations.getAgent,
    rename: { id: 'slugOrId' },
    describe: { id: 'The agent’s id or slug' },
  },
  {
    name: 'create_task',
    description:
      'Submit a task: to one agent (agentId) or routed by capabilities, protocols and maxPriceCents. It is paid from credits or a saved card. A file uploaded with POST /v1/files is passed as {"$file": "fil_…"} anywhere in input. Answers {data: task, payment}; keep data.id for get_task.',
    route: operations.createTask,
    headers: { 'Idempotency-Key': 'idempotencyKey' },
    describe: { idempotencyKey: 'Send the same key again (within 24 hours) to get the task the first call made instead of a second task' },
  },
  {
    name: 'get_task',
    description: `One of your tasks by id: status (${TASK_STATUSES.join(', ')}), result or error. Answers {data: task}, then a resource link for each file its input or result refers to.`,
    route: operations.getTask,
    describe: { id: 'The task id (data.id of create_task)' },
  },
  {
    name: 'list_my_tasks',
    description: 'Your tasks, newest first (role requester by default), optionally by status; page with nextCursor. Answers {data: [task], nextCursor}.',
    route: operations.listTasks,
  },
  {
    name: 'cancel_task',
    description: 'Cancel one of your tasks that has not finished. Answers {data: task}.',
    route: operations.cancelTask,
    describe: { id: 'The task id' },
  },
];

export interface Tool extends ToolDefinition {
  inputSchema: JsonSchema & { type: 'object' };
  // Splits the tool's arguments into the route's path parameters, query parameters and body.
  request(args: Record<string, unknown>): {
    params: Record<string, string>;
    query: URLSearchParams;
    body: Record<string, unknown> | undefined;
    headers: Record<string, string>;
  };
}

interface OpenApiParameter {
  name: string;
  in: string;
  required?: boolean;
  schema: JsonSchema;
  description?: string;
}

const toPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

// The tools over the given routes, with schemas from their OpenAPI description.
export function buildTools(routes: Route[]): Tool[] {
  const document = buildOpenApiDocument({ schema: graphqlSchema, routes: routes.map(documentedRest) });
  const components = document.components.schemas as Record<string, JsonSchema>;
  const paths = document.paths as Record<string, Record<string, { parameters?: OpenApiParameter[]; requestBody?: { content: Record<string, { schema: JsonSchema }> } }>>;

  return toolDefinitions.map((definition) => {
    const { method, path } = definition.route;
    const operation = paths[toPath(path)]?.[method.toLowerCase()];
    if (!operation) throw new Error(`MCP tool ${definition.name}: ${method} ${path} is not among the routes`);
    const toArg = new Map(Object.entries(definition.rename ?? {}).map(([arg, param]) => [param, arg]));
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    const pathParams = new Set<string>();
    const queryParams = new Map<string, string>(); // argument → parameter
    const headerArgs = new Map<string, string>(); // argument → header
    for (const p of operation.parameters ?? []) {
      const headerArg = p.in === 'header' ? definition.headers?.[p.name] : undefined;
      if (headerArg) {
        headerArgs.set(headerArg, p.name.toLowerCase());
        properties[headerArg] = { ...p.schema, description: definition.describe?.[headerArg] ?? p.description };
        continue;
      }
      if (p.in !== 'path' && p.in !== 'query') continue;
      const arg = toArg.get(p.name) ?? p.name;
      if (definition.omit?.includes(arg)) continue;
      const description = p.description ?? definition.describe?.[arg];
      properties[arg] = description ? { ...p.schema, description } : p.schema;
      if (p.in === 'path') {
        pathParams.add(p.name);
        required.push(arg);
      } else queryParams.set(arg, p.name);
    }
    const body = operation.requestBody?.content['application/json']?.schema;
    if (body) {
      const object = resolve(body, components);
      for (const [name, s] of Object.entries((object.properties ?? {}) as Record<string, JsonSchema>)) properties[name] = s;
      required.push(...((object.required ?? []) as string[]));
    }
    const inputSchema = withDefinitions({ type: 'object', properties, required, additionalProperties: false }, components) as Tool['inputSchema'];

    return {
      ...definition,
      inputSchema,
      request(args) {
        const params: Record<string, string> = {};
        const headers: Record<string, string> = {};
        const query = new URLSearchParams();
        let requestBody: Record<string, unknown> | undefined;
        for (const [arg, value] of Object.entries(args)) {
          // Own names only: an argument called `constructor` is not renamed to Object's.
          const param = (definition.rename && Object.hasOwn(definition.rename, arg) ? definition.rename[arg] : undefined) ?? arg;
          if (headerArgs.has(arg)) {
            if (value !== undefined && value !== null) headers[headerArgs.get(arg)!] = String(value);
          } else if (pathParams.has(param)) params[param] = typeof value === 'string' ? value : JSON.stringify(value);
          else if (queryParams.has(arg)) {
            if (value === undefined || value === null) continue;
            for (const v of Array.isArray(value) ? value : [value]) query.append(param, typeof v === 'string' ? v : JSON.stringify(v));
          } else if (body) (requestBody ??= {})[arg] = value;
          else throw invalid(arg, `${definition.name} has no argument ${arg}`);
        }
        for (const name of pathParams) params[name] ??= '';
        if (body) requestBody ??= {};
        return { params, query, body: requestBody, headers };
      },
    };
  });
}

function resolve(schema: JsonSchema, components: Record<string, JsonSchema>): JsonSchema {
  const ref = schema.$ref as string | undefined;
  return ref ? resolve(components[ref.slice('#/components/schemas/'.length)]!, components) : schema;
}

// The schema with its references pointing at $defs inside it (an MCP tool's schema stands alone).
function withDefinitions(schema: JsonSchema, components: Record<string, JsonSchema>): JsonSchema {
  const used = new Set<string>();
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => {
        if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')) {
          const name = v.slice('#/components/schemas/'.length);
          if (!used.has(name)) {
            used.add(name);
            rewrite(components[name]);
          }
          return [k, `#/$defs/${name}`];
        }
        return [k, rewrite(v)];
      }),
    );
  };
  const rewritten = rewrite(schema) as JsonSchema;
  if (used.size === 0) return rewritten;
  return { ...rewritten, $defs: Object.fromEntries([...used].sort().map((name) => [name, rewrite(components[name])])) };
}
