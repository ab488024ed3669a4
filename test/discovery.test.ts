// Public discovery over real HTTP: GET /v1/discover and /v1/discover/:slugOrId, their field sets, the
// envelope, parameter errors, and the same queries over GraphQL. Engine behaviour itself is covered by
// the engine suite (discovery-engine-suite.ts).
import { describe, expect, it } from 'vitest';
import { test } from './support/fixtures.js';
import type { TestServer } from './support/server.js';
import { runCli } from './support/processes.js';

const itemFields = [
  'id', 'name', 'slug', 'description', 'protocols', 'categories', 'capabilities', 'tags', 'endpoint', 'deliveryMode', 'docsUrl', 'authType', 'version', 'status',
].sort();
const detailFields = [
  ...itemFields, 'longDescription', 'verified', 'healthStatus', 'inputSchema', 'twitterUrl', 'taskCount', 'avgRating', 'createdAt', 'updatedAt', 'stats',
].sort();

let server: TestServer;
let owner: { id: string; apiKey: string };
const created: Record<string, { id: string; slug: string }> = {};

async function createAgent(body: Record<string, unknown>) {
  const res = await server.api.post('/v1/agents', { key: owner.apiKey, body: { endpoint: 'http://127.0.0.1:9/tasks', ...body } });
  expect(res.status).toBe(201);
  created[body.name as string] = res.body.data;
  return res.body.data as { id: string; slug: string };
}

test.beforeAll(async ({ server: s, owner: o }) => {
  [server, owner] = [s, o];
  await createAgent({
    name: 'Babel Translator',
    description: 'Translates text between languages',
    longDescription: 'Supports forty languages.',
    capabilities: ['Translation', 'French'],
    protocols: ['REST', 'mcp'],
    categories: ['Language'],
    tags: ['nlp'],
    docsUrl: 'https://docs.example.com/babel',
    authType: 'bearer',
    version: '2.1.0',
    twitterUrl: 'https://twitter.com/babel',
    inputSchema: '{"type":"object"}',
  });
  await createAgent({ name: 'Canvas Painter', description: 'Image generation from prompts', capabilities: ['image-generation'], protocols: ['rest'] });
  await createAgent({ name: 'Sleepy Translator', description: 'Translates, slowly', capabilities: ['translation'], status: 'inactive' });
  for (let i = 0; i < 5; i++) await createAgent({ name: `Bulk Worker ${i}`, description: 'Bulk chores', capabilities: ['bulk'] });
});

describe('GET /v1/discover', () => {
  it('needs no authentication and answers with the envelope and the item field set', async () => {
    const res = await server.api.get('/v1/discover?q=tranlsator');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'page', 'perPage', 'total', 'totalPages']);
    expect(res.body).toMatchObject({ total: 1, page: 1, perPage: 20, totalPages: 1 });
    const [item] = res.body.data;
    expect(Object.keys(item).sort()).toEqual(itemFields);
    expect(item).toMatchObject({
      id: created['Babel Translator']!.id,
      slug: 'babel-translator',
      capabilities: ['translation', 'french'],
      protocols: ['rest', 'mcp'],
      docsUrl: 'https://docs.example.com/babel',
      authType: 'bearer',
      version: '2.1.0',
      status: 'active',
    });
  });

  it('lists only active agents unless a status is asked for', async () => {
    const all = await server.api.get('/v1/discover?per_page=100');
    expect(all.body.data.map((a: { name: string }) => a.name)).not.toContain('Sleepy Translator');
    expect(all.body.total).toBe(7);
    const inactive = await server.api.get('/v1/discover?status=inactive&q=translator');
    expect(inactive.body.data.map((a: { name: string }) => a.name)).toEqual(['Sleepy Translator']);
  });

  it('takes repeatable filters, case-insensitively, combined with q', async () => {
    const res = await server.api.get('/v1/discover?protocol=REST&protocol=Mcp&capability=translation');
    expect(res.body.data.map((a: { name: string }) => a.name)).toEqual(['Babel Translator']);
    const none = await server.api.get('/v1/discover?q=painter&protocol=mcp');
    expect(none.body).toMatchObject({ data: [], total: 0, totalPages: 0 });
    const category = await server.api.get('/v1/discover?category=language');
    expect(category.body.total).toBe(1);
  });

  it('pages with page and per_page; totals agree with the data', async () => {
    const first = await server.api.get('/v1/discover?q=bulk&per_page=2&sort=created');
    expect(first.body).toMatchObject({ total: 5, page: 1, perPage: 2, totalPages: 3 });
    const third = await server.api.get('/v1/discover?q=bulk&per_page=2&page=3&sort=created');
    expect(third.body.data).toHaveLength(1);
    expect(third.body.data[0].name).toBe('Bulk Worker 0');
    expect(first.body.data.map((a: { name: string }) => a.name)).toEqual(['Bulk Worker 4', 'Bulk Worker 3']);
  });

  it.each([
    ['page=0', 'page'],
    ['page=abc', 'page'],
    ['page=1.5', 'page'],
    ['page=1&page=2', 'page'],
    ['per_page=101', 'per_page'],
    ['per_page=0', 'per_page'],
    ['per_page=-3', 'per_page'],
    ['sort=popular', 'sort'],
    ['status=sleeping', 'status'],
    ['q=' + 'x'.repeat(201), 'q'],
    ['q=a&q=b', 'q'],
    ['capability=' + 'c'.repeat(65), 'capability'],
    ['protocol=', 'protocol'],
  ])('refuses %s with 400 naming %s', async (query, field) => {
    const res = await server.api.get(`/v1/discover?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_INPUT', field });
  });

  it('accepts per_page=100, the maximum', async () => {
    const res = await server.api.get('/v1/discover?per_page=100');
    expect(res.status).toBe(200);
    expect(res.body.perPage).toBe(100);
  });
});

describe('GET /v1/discover/:slugOrId', () => {
  it('finds an agent by slug and by id, with the detail field set', async () => {
    const babel = created['Babel Translator']!;
    const bySlug = await server.api.get(`/v1/discover/${babel.slug}`);
    expect(bySlug.status).toBe(200);
    expect(Object.keys(bySlug.body.data).sort()).toEqual(detailFields);
    expect(bySlug.body.data).toMatchObject({
      id: babel.id,
      longDescription: 'Supports forty languages.',
      verified: false,
      healthStatus: 'unknown',
      inputSchema: '{"type":"object"}',
      twitterUrl: 'https://twitter.com/babel',
      taskCount: 0,
      avgRating: null,
      stats: { recentTasks: 0, successRate: null, p50CompletionMs: null, p95CompletionMs: null },
    });
    const byId = await server.api.get(`/v1/discover/${babel.id}`);
    expect(byId.body.data).toEqual(bySlug.body.data);
  });

  it('prefers the slug when a slug equals another agent’s id', async () => {
    const target = created['Canvas Painter']!;
    // A slug cannot be made to look like an id through the API, so the clash is set up directly.
    await server.prisma.agent.update({ where: { id: created['Bulk Worker 0']!.id }, data: { slug: target.id.toLowerCase() } });
    const res = await server.api.get(`/v1/discover/${target.id.toLowerCase()}`);
    expect(res.body.data.name).toBe('Bulk Worker 0');
  });

  it('answers 404 for an unknown agent', async () => {
    const res = await server.api.get('/v1/discover/no-such-agent');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });
});

describe('GraphQL', () => {
  it('discover and agent(slugOrId) behave as the REST endpoints, without a key', async () => {
    const out = await server.api.graphql(`
      query ($q: String) {
        discover(q: $q, capabilities: ["TRANSLATION"], perPage: 5) { total page perPage totalPages data { name } }
        agent(slugOrId: "canvas-painter") { name verified trustTier stats { recentTasks } }
      }`, { q: 'babel' });
    expect(out.errors).toBeUndefined();
    expect(out.data.discover).toEqual({ total: 1, page: 1, perPage: 5, totalPages: 1, data: [{ name: 'Babel Translator' }] });
    expect(out.data.agent).toMatchObject({ name: 'Canvas Painter', verified: false, trustTier: 'unrated', stats: { recentTasks: 0 } });
  });

  it('refuses out-of-range arguments with INVALID_INPUT naming the argument', async () => {
    const out = await server.api.graphql(`{ discover(perPage: 500) { total } }`);
    expect(out.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_INPUT', field: 'perPage' });
  });
});

describe('npm run cli -- search reindex', () => {
  it('rebuilds the postgres engine’s documents and vocabulary', async () => {
    // A vocabulary word lost (as if the table had been emptied) comes back, and search with it.
    await server.prisma.$executeRaw`DELETE FROM search_words WHERE word = 'babel'`;
    await server.prisma.$executeRaw`UPDATE agent_search SET search_vector = ''::tsvector`;
    expect((await server.api.get('/v1/discover?q=babel')).body.total).toBe(0);
    const out = await runCli(['search', 'reindex', '--json'], { DATABASE_URL: server.db.url });
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual({ engine: 'postgres', indexed: 8 });
    expect((await server.api.get('/v1/discover?q=babl')).body.data.map((a: { name: string }) => a.name)).toEqual(['Babel Translator']);
  }, 120_000);
});
