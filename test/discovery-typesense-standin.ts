// A local stand-in for the few Typesense endpoints the engine uses (aliases, collections, document
// upsert/delete/import, search, synonym sets), so the sync pipeline can run end to end without a Typesense server.
// It keeps documents but does not rank: a test sets the search answer it wants. Every request is recorded.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandinRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: string;
}

export interface TypesenseStandin {
  url: string;
  requests: StandinRequest[];
  collections: Map<string, Map<string, Record<string, unknown>>>;
  aliases: Map<string, string>;
  // Synonym sets by name, as last written.
  synonymSets: Map<string, unknown>;
  // Documents behind an alias (or collection) name.
  documents(name: string): Map<string, Record<string, unknown>>;
  // While down, every request is answered 503.
  down: boolean;
  searchAnswer: { ids: string[]; found: number };
  close(): Promise<void>;
}

export async function startTypesenseStandin(): Promise<TypesenseStandin> {
  const requests: StandinRequest[] = [];
  const collections = new Map<string, Map<string, Record<string, unknown>>>();
  const aliases = new Map<string, string>();
  const synonymSets = new Map<string, unknown>();
  const state = { down: false, searchAnswer: { ids: [] as string[], found: 0 } };
  const resolve = (name: string) => collections.get(aliases.get(name) ?? name);

  // JSON, or JSON lines (import results) as text, as Typesense answers them.
  function answer(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8' });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://standin');
    const body = Buffer.concat(chunks).toString('utf8');
    requests.push({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, body });
    if (state.down) return answer(res, 503, { message: 'Not Ready or Lagging' });
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const notFound = () => answer(res, 404, { message: 'Not Found' });

    if (parts[0] === 'aliases' && parts[1]) {
      if (req.method === 'GET') return aliases.has(parts[1]) ? answer(res, 200, { name: parts[1], collection_name: aliases.get(parts[1]) }) : notFound();
      if (req.method === 'PUT') {
        aliases.set(parts[1], (JSON.parse(body) as { collection_name: string }).collection_name);
        return answer(res, 200, { name: parts[1], collection_name: aliases.get(parts[1]) });
      }
    }
    if (parts[0] === 'synonym_sets' && parts[1] && req.method === 'PUT') {
      synonymSets.set(parts[1], JSON.parse(body));
      return answer(res, 200, { name: parts[1], ...(JSON.parse(body) as object) });
    }
    if (parts[0] === 'collections' && parts.length === 1 && req.method === 'POST') {
      const schema = JSON.parse(body) as { name: string };
      collections.set(schema.name, new Map());
      return answer(res, 201, { ...schema, num_documents: 0, created_at: Date.now() });
    }
    if (parts[0] === 'collections' && parts[1]) {
      const docs = resolve(parts[1]);
      if (!docs) return notFound();
      if (parts.length === 2 && req.method === 'DELETE') {
        collections.delete(aliases.get(parts[1]) ?? parts[1]);
        return answer(res, 200, { name: parts[1] });
      }
      if (parts[2] === 'documents' && parts.length === 3 && req.method === 'POST') {
        const doc = JSON.parse(body) as Record<string, unknown> & { id: string };
        docs.set(doc.id, doc);
        return answer(res, 201, doc);
      }
      if (parts[2] === 'documents' && parts[3] === 'import' && req.method === 'POST') {
        const lines = body.split('\n').filter(Boolean);
        for (const line of lines) {
          const doc = JSON.parse(line) as Record<string, unknown> & { id: string };
          docs.set(doc.id, doc);
        }
        return answer(res, 200, lines.map(() => JSON.stringify({ success: true })).join('\n'));
      }
      if (parts[2] === 'documents' && parts[3] === 'search' && req.method === 'GET') {
        const { ids, found } = state.searchAnswer;
        return answer(res, 200, {
          found,
          out_of: docs.size,
          page: Number(url.searchParams.get('page') ?? 1),
          search_time_ms: 1,
          request_params: {},
          hits: ids.map((id) => ({ document: { id } })),
        });
      }
      if (parts[2] === 'documents' && parts[3] && req.method === 'DELETE') {
        const doc = docs.get(parts[3]);
        if (!doc) return notFound();
        docs.delete(parts[3]);
        return answer(res, 200, doc);
      }
    }
    return notFound();
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => answer(res, 500, { message: String(error) }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    collections,
    aliases,
    synonymSets,
    documents: (name) => resolve(name) ?? new Map(),
    get down() {
      return state.down;
    },
    set down(value: boolean) {
      state.down = value;
    },
    get searchAnswer() {
      return state.searchAnswer;
    },
    set searchAnswer(value) {
      state.searchAnswer = value;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
