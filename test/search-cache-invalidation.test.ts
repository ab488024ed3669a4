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

// The columns of agents whose writes are not announced: the figures every task moves (its creation, its
// delivery, its callback), which reach a cached result when it is searched again (SEARCH_CACHE_TTL_MS).
// Every other column ends cached results at once (migration search_changed_content_only).
const FIGURES = [
  'health_status', 'health_checked_at', 'trust_score', 'trust_tier', 'webhook_secret_enc', 'previous_webhook_secret_enc',
  'previous_webhook_secret_expires_at', 'delivery_state', 'endpoint_fail_streak', 'endpoint_failing_since',
  'endpoint_disabled_at', 'endpoint_ping_ok_at', 'delivery_window_start', 'delivery_window_count', 'success_lower_bound',
  'rating_bayes', 'rating_lower_bound', 'task_count', 'completed_count', 'failed_count', 'rating_count', 'rating_sum',
  'health_fail_streak', 'last_healthy_at', 'last_unhealthy_at', 'recent_finished', 'recent_success_rate',
  'p50_completion_ms', 'p95_completion_ms', 'a2a_card', 'card_fetched_at', 'updated_at',
  // The v1a signing keys: the owner's, never shown in discovery.
  'signing_key_enc', 'signing_public_key', 'previous_signing_key_enc', 'previous_signing_public_key', 'previous_signing_key_expires_at',
];

async function withClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: server.db.url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

// Writes the agent's description without the triggers (a replica session fires none): the database
// changes but no announcement is made, which shows whether an answer came from memory. SET LOCAL: the
// embedded database serves every connection from one session.
async function writeUnannounced(description: string) {
  await withClient(async (client) => {
    await client.query('BEGIN');
    await client.query(`SET LOCAL session_replication_role = replica`);
    await client.query(`UPDATE agents SET description = $1 WHERE id = $2`, [description, agentId]);
    await client.query('COMMIT');
  });
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

  it('announces no write of figures only: a cached result is kept through it, and ends with the next content write', async () => {
    expect(await descriptionsFound('quokka')).toEqual(['maps v3']);
    await writeUnannounced('maps unannounced');
    // What a task's creation writes to its agent (its delivery and callback write health, counts and trust
    // the same way), then a notification of this test's own on another channel (the service would take one
    // on its own as news): notifications arrive in commit order, so all the writes announced is heard first.
    const heard = await withClient(async (client) => {
      const payloads: string[] = [];
      await client.query('LISTEN search_changed');
      await client.query('LISTEN test_barrier');
      const barrier = new Promise<void>((resolve) =>
        client.on('notification', (n) => {
          if (n.channel === 'test_barrier') resolve();
          else payloads.push(n.channel);
        }),
      );
      await withClient(async (writer) => {
        await writer.query(`UPDATE agents SET task_count = task_count + 1, updated_at = now() WHERE id = $1`, [agentId]);
        await writer.query(`UPDATE agents SET trust_score = 0.5, trust_tier = 'bronze', success_lower_bound = 0.4, health_status = 'healthy' WHERE id = $1`, [agentId]);
        await writer.query(`SELECT pg_notify('test_barrier', '')`);
      });
      await barrier;
      return payloads;
    });
    expect(heard).toEqual([]);
    // Kept on the server (nothing announced); the embedded database's service keeps nothing.
    expect(await descriptionsFound('quokka')).toEqual([usingPostgres() ? 'maps v3' : 'maps unannounced']);
    const updated = await server.api.put(`/v1/agents/${agentId}`, { key: owner.apiKey, body: { description: 'maps v4' } });
    expect(updated.status).toBe(200);
    await until('the updated description', async () => (await descriptionsFound('quokka'))[0] === 'maps v4');
  });

  it('announces a write to every column of agents but the figures', async () => {
    const { columns, announcedOnUpdate } = await withClient(async (client) => ({
      columns: (await client.query(`SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 'agents'`)).rows.map((r) => r.column_name as string),
      announcedOnUpdate: (
        await client.query(
          `SELECT event_object_column FROM information_schema.triggered_update_columns WHERE event_object_table = 'agents' AND trigger_name = 'agents_content_search_changed'`,
        )
      ).rows.map((r) => r.event_object_column as string),
    }));
    expect(announcedOnUpdate.length).toBeGreaterThan(10);
    // Each column is one or the other: a new column must be put on one side (the migration's list or FIGURES).
    expect(columns.filter((c) => !announcedOnUpdate.includes(c) && !FIGURES.includes(c))).toEqual([]);
    expect(announcedOnUpdate.filter((c) => FIGURES.includes(c))).toEqual([]);
  });

  it('no longer finds a deleted agent', async () => {
    expect(await descriptionsFound('cartography')).toEqual(['maps v4']);
    const deleted = await server.api.delete(`/v1/agents/${agentId}`, { key: owner.apiKey });
    expect(deleted.status).toBeLessThan(300);
    await until('the agent gone', async () => (await descriptionsFound('cartography')).length === 0);
  });
});
