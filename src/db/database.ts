// Opens the service's database: the server named by DATABASE_URL, or the embedded PGlite under DATA_DIR.
// Either way the rest of the service gets a postgresql:// URL and a Prisma client.
import net from 'node:net';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { createPrismaClient, type PrismaClient } from './client.js';
import { createKysely, createSearchSql, destroyPools, type Sql } from './kysely.js';
import { embeddedSocketUrl, socketFileName, startEmbeddedDatabase } from './embedded.js';
import { applyMigrations } from './schema-engine.js';
import { lockDataDir, lockHolder } from './dir-lock.js';
import { ownerOnlyDir } from './owner-only.js';

export interface Database {
  url: string;
  embedded: boolean;
  // Whether connections keep named prepared statements (DATABASE_PREPARED_STATEMENTS, on a PostgreSQL
  // server only: the embedded database serves every connection from one session, where two
  // connections' statements of the same name would collide). The job worker follows it too.
  preparedStatements: boolean;
  prisma: PrismaClient;
  // The stores' typed SQL (db/kysely.ts), on a pool of its own.
  sql: Sql;
  // The postgres search engine's connections (db/kysely.ts createSearchSql); may be `sql` itself.
  searchSql: Sql;
  close(): Promise<void>;
}

export class DatabaseBusyError extends Error {}

function socketAnswers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * mode 'own': this process serves the embedded database (the server). mode 'shared': use a running
 * server's database through its socket when a server holds the directory (the CLI), else open it.
 */
export async function openDatabase(opts: {
  databaseUrl: string | null;
  dataDir: string;
  mode: 'own' | 'shared';
  migrate?: boolean;
  poolSize?: number;
  // On a PostgreSQL server only (see createPrismaClient).
  preparedStatements?: boolean;
}): Promise<Database> {
  if (opts.databaseUrl) {
    if (opts.migrate !== false) await applyMigrations(opts.databaseUrl);
    const preparedStatements = opts.preparedStatements ?? false;
    const prisma = createPrismaClient(opts.databaseUrl, opts.poolSize, { preparedStatements });
    const sql = createKysely(opts.databaseUrl, opts.poolSize, { preparedStatements, server: true });
    const searchSql = createSearchSql(opts.databaseUrl, opts.poolSize, sql, preparedStatements);
    return {
      url: opts.databaseUrl,
      embedded: false,
      preparedStatements,
      prisma,
      sql,
      searchSql,
      close: async () => {
        await prisma.$disconnect();
        await destroyPools(sql, searchSql);
      },
    };
  }
  const socketPath = path.resolve(opts.dataDir, socketFileName);
  await ownerOnlyDir(opts.dataDir);
  const release = await lockDataDir(opts.dataDir);
  if (!release) {
    if (opts.mode === 'own') {
      throw new DatabaseBusyError(`the embedded database in ${opts.dataDir} is in use by another process (pid ${await lockHolder(opts.dataDir)})`);
    }
    // A server holds the directory; it opens its socket once the database is up.
    for (let waited = 0; !(await socketAnswers(socketPath)); waited += 250) {
      if (waited > 60_000) throw new DatabaseBusyError(`the server holding ${opts.dataDir} does not answer on ${socketPath}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const url = embeddedSocketUrl(opts.dataDir);
    const prisma = createPrismaClient(url, 2);
    const sql = createKysely(url, 2);
    return {
      url,
      embedded: true,
      preparedStatements: false,
      prisma,
      sql,
      searchSql: sql,
      close: async () => {
        await prisma.$disconnect();
        await sql.destroy();
      },
    };
  }
  // The lock is ours: a socket file left in the directory is from a process that died.
  await rm(socketPath, { force: true });
  const embedded = await startEmbeddedDatabase({ dataDir: opts.dataDir });
  if (opts.migrate !== false) await applyMigrations(embedded.url);
  const prisma = createPrismaClient(embedded.url, opts.poolSize);
  const sql = createKysely(embedded.url, opts.poolSize);
  return {
    url: embedded.url,
    embedded: true,
    preparedStatements: false,
    prisma,
    sql,
    searchSql: sql,
    async close() {
      await prisma.$disconnect();
      await sql.destroy();
      await embedded.close();
      await release();
    },
  };
}
