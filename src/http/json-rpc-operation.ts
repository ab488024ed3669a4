// The OpenAPI operation of a JSON-RPC 2.0 endpoint (MCP's, A2A's): the request and answer envelopes,
// whose `params` and `result` the protocol's own specification defines. A JSON-RPC error is answered
// in the envelope's `error`, not in the API's error envelope (x-error-format says so to clients such as
// scripts/fuzz.ts).
import type { OpenApiOperation } from './route.js';

const ID = { type: ['string', 'integer', 'null'] };

export const JSON_RPC_REQUEST = {
  type: 'object',
  properties: { jsonrpc: { const: '2.0' }, id: ID, method: { type: 'string' }, params: { type: 'object' } },
  required: ['jsonrpc', 'method'],
};

export const JSON_RPC_ANSWER = {
  type: 'object',
  properties: {
    jsonrpc: { const: '2.0' },
    id: ID,
    result: {},
    error: { type: 'object', properties: { code: { type: 'integer' }, message: { type: 'string' }, data: {} }, required: ['code', 'message'] },
  },
  required: ['jsonrpc', 'id'],
};

export function jsonRpcOperation(opts: {
  operationId: string;
  summary: string;
  tag: string;
  // The request body: one request, or also a batch (an array of them).
  batch: boolean;
  // Further media types of a 200 answer (a stream of events), beside application/json.
  streams?: Record<string, { schema: unknown }>;
  parameters?: unknown[];
  responses?: Record<string, unknown>;
}): OpenApiOperation {
  const request = opts.batch ? { oneOf: [JSON_RPC_REQUEST, { type: 'array', items: JSON_RPC_REQUEST }] } : JSON_RPC_REQUEST;
  const answer = opts.batch ? { oneOf: [JSON_RPC_ANSWER, { type: 'array', items: JSON_RPC_ANSWER }] } : JSON_RPC_ANSWER;
  return {
    operationId: opts.operationId,
    summary: opts.summary,
    tags: [opts.tag],
    'x-error-format': 'json-rpc',
    ...(opts.parameters ? { parameters: opts.parameters } : {}),
    requestBody: { required: true, content: { 'application/json': { schema: request } } },
    responses: {
      '200': { description: 'The JSON-RPC answer; a failed call is answered in its `error`', content: { 'application/json': { schema: answer }, ...opts.streams } },
      ...opts.responses,
      '401': { $ref: '#/components/responses/Error401' },
      '429': { $ref: '#/components/responses/Error429' },
    },
  };
}
