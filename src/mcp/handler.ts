// POST /mcp: the Model Context Protocol over Streamable HTTP, stateless (a server and transport per
// request, no session), authenticated by the Bearer credential of REST. The SDK owns the wire format;
// the tools (mcp/tools.ts) run /v1 routes as the caller.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Authentication } from '../services/accounts/authenticate.js';
import { AppError, noCredential } from '../errors.js';
import { readBody } from '../http/body.js';
import type { Charge, ProtocolRoute } from '../http/protocol-route.js';
import { sendAppError, sendJson } from '../http/respond.js';
import type { Logger } from '../logger.js';
import type { Route } from '../rest/route.js';
import type { RouteExecutor } from '../rest/runner.js';
import type { Context } from '../schema/context.js';
import { buildTools, type Tool } from './tools.js';
import { callProblems, cleanErrors, invalidParams, originAllowed } from './wire.js';
import { withResourceLinks } from './resource-links.js';
import { bearerChallenge } from '../auth/challenge.js';
import { JSON_RPC_ANSWER, jsonRpcOperation } from '../http/json-rpc-operation.js';

const SERVER_INFO = { name: 'task-marketplace', version: '1.0.0' };
// More calls in one JSON-RPC batch are refused outright (each call is also counted against the rate limit).
export const MAX_BATCH_CALLS = 50;

const text = (value: unknown) => JSON.stringify(value, null, 2);

function answer(value: Record<string, unknown>, isError: boolean): CallToolResult {
  return { content: [{ type: 'text', text: text(value) }], structuredContent: value, ...(isError ? { isError: true } : {}) };
}

// The SDK is loaded by the first MCP request, not at start: most processes never serve one, and compiling
// it was a tenth of every start.
let sdk: Promise<McpSdk> | undefined;
type McpSdk = typeof import('@modelcontextprotocol/sdk/server/index.js') &
  typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js') &
  typeof import('@modelcontextprotocol/sdk/types.js');
const loadSdk = (): Promise<McpSdk> =>
  (sdk ??= Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]).then(([server, transport, types]) => ({ ...server, ...transport, ...types })));

export function createMcpRoute(opts: {
  routes: Route[];
  execute: RouteExecutor;
  contextFor: (authorization: string | undefined, known?: Authentication) => Promise<Context>;
  logger: Logger;
  // The service's own origin (PUBLIC_BASE_URL's) and the browser origins of CORS_ORIGINS: the pages allowed to call.
  origins: () => string[];
  baseUrl: () => string;
}): ProtocolRoute {
  const tools = buildTools(opts.routes);
  const byName = new Map(tools.map((t) => [t.name, t]));

  async function call(tool: Tool, args: Record<string, unknown>, context: Context): Promise<CallToolResult> {
    try {
      const outcome = await opts.execute(tool.route, tool.request(args), context);
      if ('error' in outcome) {
        const { code, message, field, details } = outcome.error;
        return answer({ error: { code, message, ...(field ? { field } : {}), ...details } }, true);
      }
      const body = outcome.body;
      return withResourceLinks(answer(typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : { data: body }, false), context);
    } catch (error) {
      if (error instanceof AppError) {
        const { code: _code, field: _field, ...details } = error.extensions ?? {};
        return answer({ error: { code: error.code, message: error.message, ...(error.field ? { field: error.field } : {}), ...details } }, true);
      }
      opts.logger.error({ err: error, tool: tool.name }, 'MCP tool failed');
      return answer({ error: { code: 'INTERNAL', message: 'internal error' } }, true);
    }
  }

  function serverFor(context: Context, { Server, CallToolRequestSchema, ListToolsRequestSchema }: McpSdk): Server {
    const server = new Server(SERVER_INFO, {
      capabilities: { tools: {} },
      instructions:
        'A marketplace of AI agents. search_agents finds agents, create_task submits a task to one (agentId) or routes it by capabilities, get_task follows it to its result.',
    });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const tool = byName.get(request.params.name);
      if (!tool) throw invalidParams(`unknown tool ${request.params.name}; list the tools with tools/list`);
      return call(tool, (request.params.arguments ?? {}) as Record<string, unknown>, context);
    });
    return server;
  }

  return {
    match: (path) => (path === '/mcp' ? '/mcp' : null),
    operations: [
      {
        method: 'POST',
        path: '/mcp',
        openapi: jsonRpcOperation({
          operationId: 'Mcp',
          summary: 'The Model Context Protocol (Streamable HTTP, stateless): tools/list and tools/call run /v1 operations as the caller',
          tag: 'mcp',
          batch: true,
          responses: {
            '202': { description: 'Only notifications were sent: nothing to answer' },
            '400': { description: 'The body is not JSON, or a batch is too long (a JSON-RPC error)', content: { 'application/json': { schema: JSON_RPC_ANSWER } } },
            '403': { description: 'The Origin header names a page of another site (a JSON-RPC error)', content: { 'application/json': { schema: JSON_RPC_ANSWER } } },
          },
        }),
      },
    ],
    async handle(req: IncomingMessage, res: ServerResponse, _url: URL, authentication: Authentication | undefined, charge: Charge) {
      try {
        // DNS rebinding: a page of another origin whose host name now points here. Refused before anything else.
        if (!originAllowed(req.headers.origin, opts.origins())) {
          return sendJson(res, 403, { jsonrpc: '2.0', error: { code: -32000, message: 'Origin not allowed: /mcp serves pages of this service and of CORS_ORIGINS only' }, id: null });
        }
        // Stateless: no server-to-client stream (GET) and no session to end (DELETE).
        if (req.method !== 'POST') {
          return sendJson(res, 405, { jsonrpc: '2.0', error: { code: -32000, message: 'use POST' }, id: null }, { allow: 'POST' });
        }
        if (!req.headers.authorization) throw noCredential();
        const context = await opts.contextFor(req.headers.authorization, authentication);
        const raw = await readBody(req);
        let message: unknown;
        try {
          message = JSON.parse(raw.toString('utf8'));
        } catch {
          return sendJson(res, 400, { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: the body is not JSON' }, id: null });
        }
        if (Array.isArray(message)) {
          if (message.length > MAX_BATCH_CALLS) {
            return sendJson(res, 400, { jsonrpc: '2.0', error: { code: -32600, message: `Invalid Request: a batch holds at most ${MAX_BATCH_CALLS} calls` }, id: null });
          }
          // The router counted the request once; each further call of the batch counts as one more.
          if (!(await charge(message.length - 1))) return;
        }
        const mcp = await loadSdk();
        const server = serverFor(context, mcp);
        const transport = new mcp.StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
        cleanErrors(transport, callProblems(message), opts.logger);
        res.on('close', () => {
          void transport.close();
          void server.close();
        });
        await server.connect(transport);
        await transport.handleRequest(req, res, message);
      } catch (error) {
        if (error instanceof AppError) {
          const challenge = bearerChallenge(opts.baseUrl(), '/mcp', req.headers.authorization ? 'invalid_token' : undefined);
          return sendAppError(res, error, error.code === 'UNAUTHENTICATED' ? { 'www-authenticate': challenge } : {});
        }
        throw error;
      }
    },
  };
}
