// GET /v1/openapi.json: the document of every route, built on first request (the base URL and the whole
// route list are known by then), and GET /docs/api: the same document as a page to read (reference-page.ts).
import type { GraphQLSchema } from 'graphql';
import { sendJson } from '../../http/respond.js';
import type { HttpRoute } from '../../http/route.js';
import { buildOpenApiDocument, type DocumentedRoute } from './document.js';
import { REFERENCE_PAGE_HEADERS, renderReferencePage } from './reference-page.js';

export function openApiRoutes(opts: { schema: GraphQLSchema; routes: () => DocumentedRoute[]; baseUrl: () => string }): HttpRoute[] {
  let document: ReturnType<typeof buildOpenApiDocument> | null = null;
  let page: Buffer | null = null;
  const built = () => (document ??= buildOpenApiDocument({ schema: opts.schema, routes: opts.routes(), serverUrl: opts.baseUrl() }));
  return [
    {
      method: 'GET',
      path: '/v1/openapi.json',
      credential: 'public',
      admission: 'none',
      openapi: {
        operationId: 'OpenApiDocument',
        summary: 'This document',
        tags: ['openapi'],
        security: [],
        responses: { '200': { description: 'The OpenAPI 3.1 document of every HTTP route', content: { 'application/json': { schema: { type: 'object' } } } } },
      },
      async handle({ res }) {
        sendJson(res, 200, built(), { 'cache-control': 'public, max-age=300' });
      },
    },
    {
      method: 'GET',
      path: '/docs/api',
      credential: 'public',
      admission: 'none',
      openapi: {
        operationId: 'ApiReferencePage',
        summary: 'This document as a page to read',
        tags: ['openapi'],
        security: [],
        responses: { '200': { description: 'An HTML page of the operations', content: { 'text/html': { schema: { type: 'string' } } } } },
      },
      async handle({ res }) {
        page ??= Buffer.from(renderReferencePage(built()));
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': page.length, 'cache-control': 'public, max-age=300', ...REFERENCE_PAGE_HEADERS });
        res.end(page);
      },
    },
  ];
}
