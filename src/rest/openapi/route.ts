// GET /v1/openapi.json: the document, built on first request (the base URL is known by then), and
// GET /docs/api: the same document as a page to read (reference-page.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GraphQLSchema } from 'graphql';
import { sendJson } from '../../http/respond.js';
import type { Route } from '../route.js';
import { buildOpenApiDocument, type DocumentedRawRoute } from './document.js';
import { REFERENCE_PAGE_HEADERS, renderReferencePage } from './reference-page.js';

export function openApiRoutes(opts: { schema: GraphQLSchema; routes: Route[]; rawRoutes: DocumentedRawRoute[]; baseUrl: () => string }) {
  let document: ReturnType<typeof buildOpenApiDocument> | null = null;
  let page: Buffer | null = null;
  const built = () => (document ??= buildOpenApiDocument({ schema: opts.schema, routes: opts.routes, rawRoutes: opts.rawRoutes, serverUrl: opts.baseUrl() }));
  return [
    {
      method: 'GET',
      path: '/v1/openapi.json',
      async handle(_req: IncomingMessage, res: ServerResponse): Promise<void> {
        sendJson(res, 200, built(), { 'cache-control': 'public, max-age=300' });
      },
    },
    {
      method: 'GET',
      path: '/docs/api',
      async handle(_req: IncomingMessage, res: ServerResponse): Promise<void> {
        page ??= Buffer.from(renderReferencePage(built()));
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': page.length, 'cache-control': 'public, max-age=300', ...REFERENCE_PAGE_HEADERS });
        res.end(page);
      },
    },
  ];
}
