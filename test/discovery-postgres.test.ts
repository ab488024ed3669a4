// The engine suite on the default engine: PostgreSQL full-text search with pg_trgm typo tolerance, on the
// embedded PGlite, or on the PostgreSQL server when DATABASE_URL is set.
import { createPrismaClient } from '../src/db/client.js';
import { createKysely } from '../src/db/kysely.js';
import { createPostgresSearchEngine } from '../src/search/postgres/engine.js';
import { createTestDatabase } from './support/database.js';
import { describeSearchEngine } from './discovery-engine-suite.js';

describeSearchEngine('postgres', async () => {
  const db = await createTestDatabase();
  const prisma = createPrismaClient(db.url, 4);
  const sql = createKysely(db.url, 4);
  return {
    engine: createPostgresSearchEngine(sql),
    prisma,
    // The tsvector and the vocabulary are kept by triggers: nothing to do.
    async indexSeeded() {},
    async close() {
      await prisma.$disconnect();
      await sql.destroy();
      await db.close();
    },
  };
});
