// The PostgreSQL search returns the page's agents from its own query, reading every column of agents but the
// A2A card (stores/search-store.ts SEARCH_AGENT_COLUMNS). Each one must exist, and the rows must be what
// Prisma reads.
import { describe, expect, test } from './support/fixtures.js';
import { createPostgresSearchEngine } from '../src/search/postgres/engine.js';
import { discoveryQuerySchema } from '../src/search/query.js';
import { SEARCH_AGENT_COLUMNS } from '../src/stores/search-store.js';

describe('the search\'s agent rows', () => {
  test('are every column of agents but the A2A card', async ({ server }) => {
    const rows = await server.prisma.$queryRaw<Array<{ column_name: string }>>`
      SELECT column_name FROM information_schema.columns WHERE table_name = 'agents'`;
    const columns = new Set(rows.map((r) => r.column_name));
    const read = SEARCH_AGENT_COLUMNS.map((c) => c.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`));
    expect(read.filter((c) => !columns.has(c))).toEqual([]);
    // The card alone is left out: search never shows it.
    expect([...columns].filter((c) => !read.includes(c))).toEqual(['a2a_card']);
  });

  test('are the agents as Prisma reads them, enums and arrays included, the A2A card left out', async ({ server }) => {
    const owner = await server.createUser();
    await server.prisma.agent.create({
      data: {
        id: 'agt_columns',
        ownerId: owner.id,
        name: 'Column Counter',
        slug: 'column-counter',
        endpoint: 'https://columns.example.com/tasks',
        capabilities: ['column-counting'],
        protocols: ['http'],
        tags: ['tables'],
        status: 'active',
        healthStatus: 'healthy',
        trustTier: 'silver',
        deliveryState: 'failing',
        a2aCard: { name: 'Column Counter' },
        recentSuccessRate: 0.5,
        p50CompletionMs: 1200,
      },
    });
    const hits = await createPostgresSearchEngine(server.sql).search(discoveryQuerySchema.parse({ q: 'column counting' }));
    expect(hits.ids).toEqual(['agt_columns']);
    const read = await server.prisma.agent.findUniqueOrThrow({ where: { id: 'agt_columns' } });
    expect(hits.agents).toEqual([{ ...read, a2aCard: null }]);
  });
});
