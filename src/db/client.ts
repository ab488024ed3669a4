import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client.js';
import { statementNamer } from './statement-names.js';

export type { PrismaClient };
export type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];
// Services take either the client or an open transaction.
export type Db = PrismaClient | Tx;

// preparedStatements: only for a PostgreSQL server. The embedded PGlite serves every connection from one
// session, where two connections preparing the same name would collide.
export function createPrismaClient(connectionString: string, poolSize = 10, opts: { preparedStatements?: boolean } = {}): PrismaClient {
  const adapter = new PrismaPg({ connectionString, max: poolSize }, opts.preparedStatements ? { statementNameGenerator: statementNamer() } : {});
  return new PrismaClient({ adapter });
}
