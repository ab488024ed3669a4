import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client.js';
import { statementNamer } from './statement-names.js';

export type { PrismaClient };
export type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];
// Services take either the client or an open transaction.
export type Db = PrismaClient | Tx;

// preparedStatements: only for a PostgreSQL server. The embedded PGlite serves every connection from one
// session, where two connections preparing the same name would collide.
// genericPlans: the connections plan each prepared statement once, for any parameters
// (plan_cache_mode = force_generic_plan; an `options` parameter in the URL takes precedence).
export function createPrismaClient(
  connectionString: string,
  poolSize = 10,
  opts: { preparedStatements?: boolean; genericPlans?: boolean } = {},
): PrismaClient {
  const options = opts.genericPlans ? { options: '-c plan_cache_mode=force_generic_plan' } : {};
  const adapter = new PrismaPg({ connectionString, max: poolSize, ...options }, opts.preparedStatements ? { statementNameGenerator: statementNamer() } : {});
  return new PrismaClient({ adapter });
}

// The client the postgres search engine queries through. On a PostgreSQL server with prepared statements,
// connections of its own whose statements always run their generic plan: PostgreSQL otherwise chose,
// statement by statement, to plan the most common search anew on every run, which took 0.2-0.3 ms, more
// than the search itself for a selective query, and gave the same plan (the GIN index's bitmap scan).
// Elsewhere (PGlite, or behind a pooler without prepared statements) the service's own client.
export function createSearchClient(connectionString: string, poolSize: number | undefined, main: PrismaClient, preparedStatements: boolean): PrismaClient {
  if (!preparedStatements) return main;
  return createPrismaClient(connectionString, poolSize, { preparedStatements: true, genericPlans: true });
}

// Closes each client once (the search client may be the main one).
export async function disconnectClients(...clients: PrismaClient[]): Promise<void> {
  await Promise.all([...new Set(clients)].map((c) => c.$disconnect()));
}
