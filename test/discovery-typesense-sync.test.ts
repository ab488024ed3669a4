// The Typesense engine wired into the running service, against a local stand-in: agent changes reach the
// index through search.sync jobs, nothing is lost while Typesense is down, results come back in the order
// Typesense ranked them, and search falls back to the database while Typesense is unreachable.
import { afterAll, describe, expect, it } from 'vitest';
import { test as fixtures, type TestUser } from './support/fixtures.js';
import type { TestServer } from './support/server.js';
import { startTypesenseStandin, type TypesenseStandin } from './discovery-typesense-standin.js';
import { until } from './support/wait.js';
import { SYNONYMS } from '../src/search/text/synonyms.js';

const ALIAS = 'agents_test';


let standin: TypesenseStandin;
let server: TestServer;
let owner: TestUser;

// The service indexes into a Typesense stand-in of this file's, which outlives it.
const test = fixtures
  // eslint-disable-next-line no-empty-pattern -- vitest reads what a fixture needs from this pattern: nothing
  .extend('standin', { scope: 'file' }, async ({}, { onCleanup }) => {
    const started = await startTypesenseStandin();
    onCleanup(() => started.close());
    return started;
  })
  .extend('serverEnv', { scope: 'file' }, async ({ standin }) => ({ TYPESENSE_URL: standin.url, TYPESENSE_API_KEY: 'test-key', TYPESENSE_COLLECTION: ALIAS }));

test.beforeAll(async ({ server: s, owner: o, standin: t }) => {
  [server, owner, standin] = [s, o, t];
});
afterAll(async () => {
  // Let jobs in flight finish first: a job completing while the worker stops can outlive the database.
  await until('an idle job queue', async () => {
    const [{ busy }] = await server.prisma.$queryRaw<[{ busy: bigint }]>`
      SELECT count(*) AS busy FROM graphile_worker.jobs WHERE locked_at IS NOT NULL OR (run_at <= now() AND attempts < max_attempts)`;
    return busy === 0n;
  });
});

const createAgent = async (name: string) =>
  (await server.api.post('/v1/agents', { key: owner.apiKey, body: { name, endpoint: 'http://127.0.0.1:9/tasks', capabilities: ['Translation'] } })).body.data;

describe('index sync through the job queue', () => {
  it('creates the collection behind the alias and indexes a new agent', async () => {
    const agent = await createAgent('Sync Translator');
    const doc = await until('the document', () => standin.documents(ALIAS).get(agent.id));
    expect(doc).toMatchObject({ id: agent.id, name: 'Sync Translator', capabilities: ['translation'], status: 'active', avg_rating: 0, task_count: 0 });
    expect(standin.aliases.get(ALIAS)).toMatch(new RegExp(`^${ALIAS}_\\d+$`));
  });

  it('writes the synonym table as a synonym set along with the collection', () => {
    const set = standin.synonymSets.get(`${ALIAS}_synonyms`) as { items: Array<{ synonyms: string[] }> };
    expect(set.items.map((item) => item.synonyms)).toEqual(SYNONYMS.map((phrases) => [...phrases]));
  });

  it('follows updates and removes deleted agents', async () => {
    const agent = await createAgent('Renamed Later');
    await until('the first version', () => standin.documents(ALIAS).get(agent.id));
    await server.api.put(`/v1/agents/${agent.id}`, { key: owner.apiKey, body: { name: 'Renamed Now', status: 'inactive' } });
    await until('the update', () => standin.documents(ALIAS).get(agent.id)?.name === 'Renamed Now');
    expect(standin.documents(ALIAS).get(agent.id)).toMatchObject({ status: 'inactive' });
    await server.api.delete(`/v1/agents/${agent.id}`, { key: owner.apiKey });
    await until('the removal', () => !standin.documents(ALIAS).has(agent.id));
  });

  it('keeps the change in the queue while Typesense is down and delivers it once it is back', async () => {
    standin.down = true;
    let agentId: string;
    try {
      agentId = (await createAgent('Patient Agent')).id;
      const failed = await until('a failed sync attempt', async () => {
        const rows = await server.prisma.$queryRaw<Array<{ attempts: number; last_error: string | null }>>`
          SELECT attempts, last_error FROM graphile_worker.jobs WHERE task_identifier = 'search.sync' AND key = ${`search.sync:${agentId}`}`;
        return rows[0]?.last_error ? rows[0] : null;
      });
      expect(failed.attempts).toBeGreaterThanOrEqual(1);
      expect(standin.documents(ALIAS).has(agentId)).toBe(false);
    } finally {
      standin.down = false;
    }
    // graphile-worker retries after e^attempts seconds: about 3 s for the first retry.
    await until('the retried sync', () => standin.documents(ALIAS).get(agentId), 30_000);
  });
});

describe('reindex', () => {
  it('builds a new collection with every agent, moves the alias to it and drops the old one', async () => {
    const before = standin.aliases.get(ALIAS)!;
    const count = await server.prisma.agent.count();
    const { indexed } = await server.app.services.discovery.reindex();
    expect(indexed).toBe(count);
    const after = standin.aliases.get(ALIAS)!;
    expect(after).not.toBe(before);
    expect(standin.collections.has(before)).toBe(false);
    expect(standin.documents(ALIAS).size).toBe(count);
  });
});

describe('search through Typesense', () => {
  it('sends the translated parameters and answers with the agents in Typesense order', async () => {
    const a = await createAgent('Order First');
    const b = await createAgent('Order Second');
    standin.searchAnswer = { ids: [b.id, a.id], found: 7 };
    const res = await server.api.get('/v1/discover?q=ordr&capability=Translation&per_page=2&page=1&sort=tasks');
    expect(res.status).toBe(200);
    expect(res.body.data.map((x: { id: string }) => x.id)).toEqual([b.id, a.id]);
    expect(res.body).toMatchObject({ total: 7, page: 1, perPage: 2, totalPages: 4 });
    const sent = standin.requests.filter((r) => r.path.endsWith('/documents/search')).at(-1)!;
    expect(sent.path).toBe(`/collections/${ALIAS}/documents/search`);
    expect(sent.query.get('q')).toBe('ordr');
    expect(sent.query.get('filter_by')).toBe('status:=active && capabilities:=[`translation`]');
    expect(sent.query.get('sort_by')).toBe('task_count:desc,_text_match:desc');
    expect(sent.query.get('per_page')).toBe('2');
    expect(sent.query.get('synonym_sets')).toBe(`${ALIAS}_synonyms`);
  });

  it('answers from the database while Typesense is unreachable', async () => {
    await createAgent('Fallback Translator');
    standin.down = true;
    try {
      const res = await server.api.get('/v1/discover?q=falback');
      expect(res.status).toBe(200);
      expect(res.body.data.map((x: { name: string }) => x.name)).toContain('Fallback Translator');
    } finally {
      standin.down = false;
    }
  });
});
