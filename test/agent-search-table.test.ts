// agent_search, the narrow rows discovery ranks on, follows every write to agents through triggers, in
// the same transaction: texts, the columns filters and sorts use, status and deletion.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrismaClient, type PrismaClient } from '../src/db/client.js';
import { createKysely, type Sql } from '../src/db/kysely.js';
import { createPostgresSearchEngine } from '../src/search/postgres/engine.js';
import type { SearchEngine } from '../src/search/engine.js';
import { discoveryQuerySchema, type DiscoveryQueryInput } from '../src/search/query.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';

describe('agent_search follows agents', () => {
  let db: TestDatabase;
  let prisma: PrismaClient;
  let sql: Sql;
  let engine: SearchEngine;
  const ids = async (input: DiscoveryQueryInput) => (await engine.search(discoveryQuerySchema.parse(input))).ids;
  const agent = (id: string, name: string, capabilities: string[]) =>
    prisma.agent.create({ data: { id, ownerId: 'usr_s', name, slug: id, endpoint: `https://${id}.example.com`, capabilities } });

  beforeAll(async () => {
    db = await createTestDatabase();
    prisma = createPrismaClient(db.url, 2);
    sql = createKysely(db.url, 2);
    engine = createPostgresSearchEngine(sql);
    await prisma.user.create({ data: { id: 'usr_s', email: 's@example.com' } });
    await agent('agt_a', 'Ledger Keeper', ['bookkeeping']);
    await agent('agt_b', 'Books Balancer', ['bookkeeping']);
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    await sql?.destroy();
    await db?.close();
  });

  it('has a row for each new agent, found by its words', async () => {
    expect((await ids({ q: 'bookkeeping' })).sort()).toEqual(['agt_a', 'agt_b']);
  });

  it('rebuilds the document when a text changes', async () => {
    await prisma.agent.update({ where: { id: 'agt_a' }, data: { capabilities: ['payroll'] } });
    expect(await ids({ q: 'bookkeeping' })).toEqual(['agt_b']);
    expect(await ids({ q: 'payroll' })).toEqual(['agt_a']);
    // The filter copies follow too.
    expect(await ids({ q: 'payroll', capabilities: ['payroll'] })).toEqual(['agt_a']);
  });

  it('copies the columns the sorts use', async () => {
    await prisma.agent.update({ where: { id: 'agt_a' }, data: { capabilities: ['bookkeeping'] } });
    // sort=rating orders by the bounded rating (the reputation service stores it beside the counts).
    await prisma.agent.update({ where: { id: 'agt_a' }, data: { ratingCount: 1, ratingSum: 5, ratingLowerBound: 3.9, taskCount: 1 } });
    await prisma.agent.update({ where: { id: 'agt_b' }, data: { ratingCount: 1, ratingSum: 2, ratingLowerBound: 2.1, taskCount: 9 } });
    expect(await ids({ q: 'bookkeeping', sort: 'rating' })).toEqual(['agt_a', 'agt_b']);
    expect(await ids({ q: 'bookkeeping', sort: 'tasks' })).toEqual(['agt_b', 'agt_a']);
  });

  it('leaves the row alone when nothing it holds changed', async () => {
    const xmin = () => prisma.$queryRaw<[{ xmin: string }]>`SELECT xmin::text FROM agent_search WHERE id = 'agt_b'`;
    const before = await xmin();
    // Raw SQL: through Prisma every update also sets updated_at, which the row holds (sort=updated).
    await prisma.$executeRaw`UPDATE agents SET endpoint = 'https://elsewhere.example.com', health_fail_streak = 3 WHERE id = 'agt_b'`;
    expect(await xmin()).toEqual(before);
    await prisma.$executeRaw`UPDATE agents SET trust_score = 0.5 WHERE id = 'agt_b'`;
    expect(await xmin()).not.toEqual(before);
  });

  it('follows the status, and goes with the agent', async () => {
    await prisma.agent.update({ where: { id: 'agt_b' }, data: { status: 'inactive' } });
    expect(await ids({ q: 'bookkeeping' })).toEqual(['agt_a']);
    expect(await ids({ q: 'bookkeeping', status: 'inactive' })).toEqual(['agt_b']);
    await prisma.agent.delete({ where: { id: 'agt_b' } });
    expect(await ids({ q: 'bookkeeping', status: 'inactive' })).toEqual([]);
    const [{ rows }] = await prisma.$queryRaw<[{ rows: number }]>`SELECT count(*)::int AS rows FROM agent_search`;
    expect(rows).toBe(1);
  });
});
