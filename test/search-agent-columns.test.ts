// The PostgreSQL search returns the page's agents from its own query, reading the columns the Agent model
// names (search/postgres/agent-columns.ts). Each one must exist, and the rows must be what Prisma reads.
import { describe, expect, test } from './support/fixtures.js';
import { AGENT_FIELDS, columnOf } from '../src/search/postgres/agent-columns.js';
import { createPostgresSearchEngine } from '../src/search/postgres/engine.js';
import { discoveryQuerySchema } from '../src/search/query.js';

describe('the search\'s agent rows', () => {
  test('name a column of agents for every field of the model', async ({ server }) => {
    const rows = await server.prisma.$queryRaw<Array<{ column_name: string }>>`
      SELECT column_name FROM information_schema.columns WHERE table_name = 'agents'`;
    const columns = new Set(rows.map((r) => r.column_name));
    expect(AGENT_FIELDS.map(columnOf).filter((c) => !columns.has(c))).toEqual([]);
    // Every column is some field's: the model and the table agree both ways.
    expect([...columns].filter((c) => !AGENT_FIELDS.map(columnOf).includes(c)).filter((c) => c !== 'search_vector')).toEqual([]);
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
    const hits = await createPostgresSearchEngine(server.prisma).search(discoveryQuerySchema.parse({ q: 'column counting' }));
    expect(hits.ids).toEqual(['agt_columns']);
    const read = await server.prisma.agent.findUniqueOrThrow({ where: { id: 'agt_columns' } });
    expect(hits.agents).toEqual([{ ...read, a2aCard: null }]);
  });
});
