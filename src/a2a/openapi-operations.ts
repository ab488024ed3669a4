// The A2A endpoints (a2a/route.ts) as operations of the OpenAPI document: the agent cards anyone may
// read, and JSON-RPC, whose methods, params and results are A2A's specification's (1.0, or 0.3 without
// the A2A-Version header).
import type { HttpRoute } from '../http/route.js';
import { jsonRpcOperation } from '../http/json-rpc-operation.js';

const SLUG = { name: 'slug', in: 'path', required: true, schema: { type: 'string' }, description: 'A public active agent' };
const VERSION = {
  name: 'A2A-Version',
  in: 'header',
  required: false,
  schema: { type: 'string', enum: ['1.0', '0.3'] },
  description: 'The protocol version of the request; without it, 0.3 (methods spelled like message/send)',
};
const EVENTS = { 'text/event-stream': { schema: { type: 'string', description: 'SendStreamingMessage and SubscribeToTask: one JSON-RPC answer per event' } } };
const NOT_FOUND = { '404': { $ref: '#/components/responses/Error404' } };

const card = (operationId: string, summary: string, parameters: unknown[]) => ({
  operationId,
  summary,
  tags: ['a2a'],
  security: [],
  ...(parameters.length ? { parameters } : {}),
  responses: {
    '200': {
      description: 'The agent card (A2A 1.0); its ETag answers If-None-Match',
      headers: { ETag: { schema: { type: 'string' } } },
      content: { 'application/json': { schema: { type: 'object', properties: { name: { type: 'string' }, supportedInterfaces: { type: 'array', items: { type: 'object' } } }, required: ['name', 'supportedInterfaces'] } } },
    },
    '304': { description: 'The card is the one of If-None-Match' },
    ...(parameters.length ? NOT_FOUND : {}),
  },
});

export const A2A_OPERATIONS: Array<Pick<HttpRoute, 'method' | 'path' | 'openapi'>> = [
  { method: 'GET', path: '/.well-known/agent-card.json', openapi: card('A2AMarketplaceCard', 'The marketplace’s agent card', []) },
  { method: 'GET', path: '/a2a/agents/:slug/.well-known/agent-card.json', openapi: card('A2AAgentCard', 'An agent’s card', [SLUG]) },
  {
    method: 'POST',
    path: '/a2a',
    openapi: jsonRpcOperation({
      operationId: 'A2A',
      summary: 'A2A JSON-RPC: a message is routed to an agent by the task’s capabilities',
      tag: 'a2a',
      batch: false,
      parameters: [VERSION],
      streams: EVENTS,
    }),
  },
  {
    method: 'POST',
    path: '/a2a/agents/:slug',
    openapi: jsonRpcOperation({
      operationId: 'A2AAgent',
      summary: 'A2A JSON-RPC with one agent',
      tag: 'a2a',
      batch: false,
      parameters: [SLUG, VERSION],
      streams: EVENTS,
      responses: NOT_FOUND,
    }),
  },
];
