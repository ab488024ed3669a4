// On a PostgreSQL server the service's queries run as named prepared statements (parsed and planned once
// per connection). The embedded PGlite serves all connections from one session and never gets them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createPrismaClient, type PrismaClient } from '../src/db/client.js';
import { createKysely, createSearchSql, type Sql } from '../src/db/kysely.js';
import { isDatabaseUnavailable } from '../src/db/errors.js';
import { createPostgresSearchEngine } from '../src/search/postgres/engine.js';
import { discoveryQuerySchema } from '../src/search/query.js';
import { createTestDatabase, usingPostgres, type TestDatabase } from './support/database.js';

describe.runIf(usingPostgres())('prepared statements on a PostgreSQL server', () => {
  let db: TestDatabase;
  const clients: PrismaClient[] = [];
  // One connection, so that pg_prepared_statements (which lists the session's own) sees them all.
  const client = (preparedStatements: boolean) => {
    const prisma = createPrismaClient(db.url, 1, { preparedStatements });
    clients.push(prisma);
    return prisma;
  };
  const statementNames = async (prisma: PrismaClient) =>
    (await prisma.$queryRaw<Array<{ name: string }>>`SELECT name FROM pg_prepared_statements`).map((r) => r.name);
  const pools: Sql[] = [];
  const pool = (opts: Parameters<typeof createKysely>[2]) => {
    const k = createKysely(db.url, 1, opts);
    pools.push(k);
    return k;
  };
  const preparedNames = async (k: Sql) => (await sql<{ name: string }>`SELECT name FROM pg_prepared_statements`.execute(k)).rows.map((r) => r.name);

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    for (const prisma of clients) await prisma.$disconnect();
    for (const k of pools) await k.destroy();
    await db?.close();
  });

  it('prepares each query once per connection and reuses it, searches included', async () => {
    const prisma = client(true);
    await prisma.user.create({ data: { id: 'usr_prep', email: 'prep@example.com' } });
    await prisma.agent.create({
      data: { id: 'agt_prep', ownerId: 'usr_prep', name: 'Ledger Keeper', slug: 'ledger-keeper', endpoint: 'https://a.example.com', capabilities: ['bookkeeping'] },
    });
    const searchSql = pool({ preparedStatements: true, server: true });
    const engine = createPostgresSearchEngine(searchSql);
    const query = discoveryQuerySchema.parse({ q: 'bookkeeping' });
    const first = await engine.search(query);
    const afterFirst = await preparedNames(searchSql);
    const second = await engine.search(query);
    expect(second.ids).toEqual(first.ids);
    expect(first.ids).toEqual(['agt_prep']);
    const afterSecond = await preparedNames(searchSql);
    // Named for what they do: the search reads agents (statement-names.ts).
    expect(afterFirst.some((n) => /^[a-z_0-9]+\.(read|create|update|delete)\.[\w-]{8}$/.test(n))).toBe(true);
    // The second search added no statement: it ran the ones the first one prepared.
    expect(afterSecond.sort()).toEqual(afterFirst.sort());
  });

  it('prepares the stores\' statements (Kysely) once per connection, transactions included, and nothing when turned off', async () => {
    const named = createKysely(db.url, 1, { preparedStatements: true });
    const plain = createKysely(db.url, 1);
    const names = async (k: Sql) => (await sql<{ name: string }>`SELECT name FROM pg_prepared_statements`.execute(k)).rows.map((r) => r.name);
    try {
      const read = (k: Sql) => k.selectFrom('agents').select('id').where('slug', '=', 'ledger-keeper').execute();
      expect(await read(named)).toEqual([{ id: 'agt_prep' }]);
      const once = await names(named);
      expect(once).toContainEqual(expect.stringMatching(/^agent\.read\.[\w-]{8}$/));
      await named.transaction().execute(async (tx) => {
        await tx.selectFrom('agents').select('id').where('slug', '=', 'ledger-keeper').execute();
      });
      expect(await read(named)).toEqual([{ id: 'agt_prep' }]);
      // The same texts again, in and out of a transaction: nothing more to prepare than its begin and commit.
      const after = await names(named);
      expect(after.filter((n) => !once.includes(n)).length).toBeLessThanOrEqual(2);
      await read(plain);
      expect(await names(plain)).toEqual([]);
    } finally {
      await named.destroy();
      await plain.destroy();
    }
  });

  it('ends a statement that waits too long and a transaction left idle, as the database being unavailable', async () => {
    const short = createKysely(db.url, 2, { server: true, timeoutMs: 300 });
    const other = createKysely(db.url, 1);
    try {
      // A row lock held elsewhere until the update that waits for it has run out of time.
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const held = other.transaction().execute(async (tx) => {
        await tx.updateTable('agents').set({ name: 'Ledger Keeper' }).where('id', '=', 'agt_prep').execute();
        locked();
        await released;
      });
      await isLocked;
      const waited = await short.updateTable('agents').set({ name: 'Ledger' }).where('id', '=', 'agt_prep').execute().catch((e: unknown) => e);
      release();
      expect(isDatabaseUnavailable(waited)).toBe(true);
      await held;
      // A transaction whose caller stalls between statements is ended by the server. The stall is real
      // time on purpose: the server's idle-in-transaction timeout (300 ms) is what is under test.
      const stalled = await short
        .transaction()
        .execute(async (tx) => {
          await tx.selectFrom('agents').select('id').execute();
          await new Promise((r) => setTimeout(r, 800));
          await tx.selectFrom('agents').select('id').execute();
        })
        .catch((e: unknown) => e);
      expect(stalled).toBeInstanceOf(Error);
    } finally {
      await short.destroy();
      await other.destroy();
    }
  });

  it('prepares nothing when turned off', async () => {
    const prisma = client(false);
    await prisma.agent.findMany({ take: 1 });
    await prisma.agent.findMany({ take: 1 });
    expect(await statementNames(prisma)).toEqual([]);
  });

  it('runs searches on connections of their own that reuse one generic plan; the rest of the service keeps custom plans', async () => {
    const main = pool({ preparedStatements: true, server: true });
    const search = createSearchSql(db.url, 1, main, true);
    pools.push(search);
    expect(search).not.toBe(main);
    const engine = createPostgresSearchEngine(search);
    // Selective and broad, so that PostgreSQL's own choice would have planned some of them anew.
    for (const q of ['bookkeeping', 'ledger', 'keeper', 'bookkeeping', 'ledger', 'keeper', 'bookkeeping']) {
      await engine.search(discoveryQuerySchema.parse({ q }));
    }
    const { rows: plans } = await sql<{ generic: string; custom: string }>`
      SELECT generic_plans AS generic, custom_plans AS custom FROM pg_prepared_statements WHERE statement LIKE '%"agent_search" as "a"%'`.execute(search);
    expect(plans.length).toBeGreaterThan(0);
    expect(plans.every((p) => Number(p.custom) === 0 && Number(p.generic) > 0)).toBe(true);
    const mode = async (k: Sql) => (await sql<{ planCacheMode: string }>`SHOW plan_cache_mode`.execute(k)).rows[0]!.planCacheMode;
    expect(await mode(search)).toBe('force_generic_plan');
    expect(await mode(main)).toBe('auto');
  });

  it('searches through the service\'s own connections without prepared statements', () => {
    const main = pool({ server: true });
    expect(createSearchSql(db.url, 1, main, false)).toBe(main);
  });
});
