// A write to an agent reaches the search result cache of the service through the database: on a
// PostgreSQL server the search_changed triggers announce it at commit and the cached result is
// searched again; the embedded database (one process, no announcements) caches nothing.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, usingPostgres, type TestDatabase } from './support/database.js';
import { startTestServer, type TestServer } from './support/server.js';
import { until } from './support/wait.js';

let db: TestDatabase;
let server: TestServer;
let owner: { id: string; apiKey: string };
let agentId: string;

const descriptionsFound = async (q: string) => {
  const res = await server.api.get(`/v1/discover?q=${encodeURIComponent(q)}`);
  expect(res.status).toBe(200);
  return (res.body.data as Array<{ id: string; description: string | null }>).filter((a) => a.id === agentId).map((a) => a.description);
};

// Writes the agent's description without the triggers (a replica session fires none): the database
// changes but no announcement is made, which shows whether an answer came from memory. SET LOCAL: the
// embedded database serves every connection from one session.
async function writeUnannounced(description: string) {
  const client = new pg.Client({ connectionString: server.db.url });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SET LOCAL session_replication_role = replica`);
    await client.query(`UPDATE agents SET description = $1 WHERE id = $2`, [description, agentId]);
    await client.query('COMMIT');
  } finally {
    await client.end();
  }
}

// Resolves at the next announcement this process hears (the cache, subscribed first, has had it).
const nextAnnouncement = () =>
  new Promise<void>((resolve) => {
    let done = false;
    server.app.services.deps.events.watchSearchChanges((news) => {
      if (news === 'changed' && !done) resolve(void (done = true));
    });
  });

beforeAll(async () => {
  // A time limit no test reaches: only an announcement can make a cached result be searched again. No
  // jobs (they may write to the agent at any moment); the embedded database needs this process to run them.
  db = await createTestDatabase();
  server = await startTestServer({ SEARCH_CACHE_TTL_MS: '3600000', ...(usingPostgres() ? { RUN_JOBS: 'false', DATABASE_URL: db.url } : {}) }, { db });
  owner = await server.createUser();
  const announced = usingPostgres() ? nextAnnouncement() : null;
  const created = await server.api.post('/v1/agents', {
    key: owner.apiKey,
    body: { name: 'Quokka Cartographer', description: 'maps v1', endpoint: 'http://127.0.0.1:9/x', capabilities: ['cartography'], priceCents: 0 },
  });
  expect(created.status).toBe(201);
  agentId = created.body.data.id;
  // Past the creation's announcement: what the first search keeps stays kept.
  await announced;
});
afterAll(async () => {
  await server?.close();
  await db?.close();
});

describe('search result cache and agent writes', () => {
  it('answers from the database or from memory as the database can announce writes', async () => {
    expect(await descriptionsFound('quokka')).toEqual(['maps v1']);
    await writeUnannounced('maps v2');
    // On the server the first answer was kept; the embedded database's service keeps none.
    expect(await descriptionsFound('quokka')).toEqual([usingPostgres() ? 'maps v1' : 'maps v2']);
  });

  it('answers a search kept before an agent update with the updated agent', async () => {
    await descriptionsFound('cartographer');
    const updated = await server.api.put(`/v1/agents/${agentId}`, { key: owner.apiKey, body: { description: 'maps v3' } });
    expect(updated.status).toBe(200);
    // The announcement reaches the service at the commit, on a connection of its own: soon after.
    await until('the updated description', async () => (await descriptionsFound('cartographer'))[0] === 'maps v3');
    expect(await descriptionsFound('quokka')).toEqual(['maps v3']);
  });

  it('no longer finds a deleted agent', async () => {
    expect(await descriptionsFound('cartography')).toEqual(['maps v3']);
    const deleted = await server.api.delete(`/v1/agents/${agentId}`, { key: owner.apiKey });
    expect(deleted.status).toBeLessThan(300);
    await until('the agent gone', async () => (await descriptionsFound('cartography')).length === 0);
  });
});
