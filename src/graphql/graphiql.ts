// GraphiQL without a CDN: the page loads its script, styles and editor workers from this server under
// /graphiql-assets/, out of the @graphql-yoga/render-graphiql package (which yoga's default page
// would fetch from unpkg.com). The assets are large (about 9 MB), so they are loaded on first use and
// served with a long cache lifetime; their names carry the package version.
import { createRequire } from 'node:module';
import type { ServerResponse } from 'node:http';
import type { GraphiQLOptions } from 'graphql-yoga';
import { sendError } from '../http/respond.js';

const version = (createRequire(import.meta.url)('@graphql-yoga/render-graphiql/package.json') as { version: string }).version;
export const GRAPHIQL_ASSETS = '/graphiql-assets/';
const base = `${GRAPHIQL_ASSETS}${version}/`;

type AssetModule = typeof import('@graphql-yoga/render-graphiql/graphiql');
const ASSETS: Record<string, { type: string; pick: (m: AssetModule) => string }> = {
  'graphiql.js': { type: 'text/javascript', pick: (m) => m.js },
  'graphiql.css': { type: 'text/css', pick: (m) => m.css },
  'editor.worker.js': { type: 'text/javascript', pick: (m) => m.editorWorkerService },
  'json.worker.js': { type: 'text/javascript', pick: (m) => m.jsonWorker },
  'graphql.worker.js': { type: 'text/javascript', pick: (m) => m.graphqlWorker },
};

let assets: Promise<AssetModule> | null = null;
const loadAssets = () => (assets ??= import('@graphql-yoga/render-graphiql/graphiql'));

// Options go into a script tag: `<` is escaped so a value cannot close it.
const inScript = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

export function renderOfflineGraphiQL(opts: GraphiQLOptions): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${(opts.title ?? 'GraphiQL').replace(/[<&"]/g, '')}</title>
    <link rel="stylesheet" href="${base}graphiql.css" />
  </head>
  <body id="body" class="no-focus-outline">
    <div id="root"></div>
    <script>
      const workers = { editorWorkerService: 'editor.worker.js', json: 'json.worker.js', graphql: 'graphql.worker.js' };
      self.MonacoEnvironment = { globalAPI: false, getWorkerUrl: (_id, label) => ${inScript(base)} + workers[label] };
    </script>
    <script src="${base}graphiql.js"></script>
    <script>YogaGraphiQL.renderYogaGraphiQL(document.querySelector('#root'), ${inScript(opts)});</script>
  </body>
</html>`;
}

export async function serveGraphiQLAsset(path: string, res: ServerResponse): Promise<void> {
  const name = path.startsWith(base) ? path.slice(base.length) : '';
  const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name]! : null;
  if (!asset) return sendError(res, { code: 'NOT_FOUND', message: `no such asset: ${path}` });
  const body = asset.pick(await loadAssets());
  res.writeHead(200, {
    'content-type': `${asset.type}; charset=utf-8`,
    'content-length': Buffer.byteLength(body),
    'cache-control': 'public, max-age=31536000, immutable',
  });
  res.end(body);
}
