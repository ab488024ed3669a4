// The engine suite against a real Typesense server. Runs where TYPESENSE_URL and TYPESENSE_API_KEY are
// set (none can run on the development machines); each run uses its own alias and collection.
import { randomBytes } from 'node:crypto';
import { createPrismaClient } from '../src/db/client.js';
import { createKysely } from '../src/db/kysely.js';
import { createLogger } from '../src/logger.js';
import { createTypesenseClient, createTypesenseSearchEngine } from '../src/search/typesense/engine.js';
import { createTestDatabase } from './support/database.js';
import { describeSearchEngine } from './discovery-engine-suite.js';

const url = process.env.TYPESENSE_URL;
const apiKey = process.env.TYPESENSE_API_KEY;

describeSearchEngine(
  'typesense',
  async () => {
    const db = await createTestDatabase();
    const prisma = createPrismaClient(db.url, 4);
    const alias = `test_agents_${randomBytes(4).toString('hex')}`;
    const client = createTypesenseClient({ url: url!, apiKey: apiKey!, collection: alias });
    const sql = createKysely(db.url, 2);
    const engine = createTypesenseSearchEngine({ sql, logger: createLogger('silent'), client, alias });
    return {
      engine,
      prisma,
      async indexSeeded() {
        await engine.reindex();
      },
      async close() {
        const target = await client.aliases(alias).retrieve().catch(() => null);
        await client.aliases(alias).delete().catch(() => {});
        if (target) await client.collections(target.collection_name).delete().catch(() => {});
        await prisma.$disconnect();
        await sql.destroy();
        await db.close();
      },
    };
  },
  { skip: !url || !apiKey },
);
