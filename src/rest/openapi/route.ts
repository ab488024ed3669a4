// GET /v1/openapi.json: the document, built on first request (the base URL is known by then).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GraphQLSchema } from 'graphql';
import { sendJson } from '../../http/respond.js';
import type { Route } from '../route.js';
import { buildOpenApiDocument, type DocumentedRawRoute } from './document.js';

export function openApiRoute(opts: { schema: GraphQLSchema; routes: Route[]; rawRoutes: DocumentedRawRoute[]; baseUrl: () => string }) {
  let document: unknown = null;
  return {
    method: 'GET',
    path: '/v1/openapi.json',
    async handle(_req: IncomingMessage, res: ServerResponse): Promise<void> {
      document ??= buildOpenApiDocument({ schema: opts.schema, routes: opts.routes, rawRoutes: opts.rawRoutes, serverUrl: opts.baseUrl() });
      sendJson(res, 200, document, { 'cache-control': 'public, max-age=300' });
    },
  };
}
