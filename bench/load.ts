// Loads the generated agents into a migrated database in batches: one INSERT of a JSON array per batch,
// so the search triggers run as they do in production (the vocabulary trigger once per statement).
import pg from 'pg';
import type { BenchAgent } from './vocabulary.js';

const BATCH = 2000;

export async function loadAgents(url: string, agents: BenchAgent[], onProgress?: (done: number) => void): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`INSERT INTO users (id, email, updated_at) VALUES ('usr_bench', 'bench@example.com', now()) ON CONFLICT DO NOTHING`);
    const base = Date.now() - agents.length * 1000;
    for (let start = 0; start < agents.length; start += BATCH) {
      const rows = agents.slice(start, start + BATCH).map((a, i) => ({
        id: a.id,
        name: a.name,
        slug: a.slug,
        description: a.description,
        long_description: a.longDescription,
        endpoint: `https://agents.example.com/${a.slug}`,
        protocols: a.protocols,
        categories: a.categories,
        capabilities: a.capabilities,
        tags: a.tags,
        trust_score: a.trustScore,
        rating_count: a.ratingCount,
        rating_sum: a.ratingSum,
        task_count: a.taskCount,
        created_at: new Date(base + (start + i) * 1000).toISOString(),
      }));
      await client.query(
        `INSERT INTO agents (id, owner_id, name, slug, description, long_description, endpoint, protocols, categories, capabilities, tags,
                             trust_score, rating_count, rating_sum, task_count, created_at, updated_at)
         SELECT id, 'usr_bench', name, slug, description, long_description, endpoint, protocols, categories, capabilities, tags,
                trust_score, rating_count, rating_sum, task_count, created_at, created_at
         FROM json_to_recordset($1::json) AS r(id text, name text, slug text, description text, long_description text, endpoint text,
              protocols text[], categories text[], capabilities text[], tags text[], trust_score float8, rating_count int,
              rating_sum int, task_count int, created_at timestamptz)`,
        [JSON.stringify(rows)],
      );
      onProgress?.(Math.min(start + BATCH, agents.length));
    }
    // The state of a database that grew over time, where autovacuum has kept the statistics and the
    // visibility map current: without it the planner guesses, index-only scans visit the heap, and
    // autovacuum starts on its own in the middle of a measured run.
    await client.query('VACUUM ANALYZE');
  } finally {
    await client.end();
  }
}
