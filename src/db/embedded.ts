// The embedded database: PostgreSQL compiled to WASM (PGlite), served over the Postgres wire protocol
// so that every part of the service (Prisma, graphile-worker, the CLI) talks to it as to any server.
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { lazyImport } from '../load-package.js';
import { keepExtendedQueriesTogether } from './socket-queue.js';
import { ownerOnlyDir, ownerOnlyTree } from './owner-only.js';

// A service on a PostgreSQL server never loads PGlite (about 20 MB resident for its code alone).
const loadPGlite = lazyImport(() => Promise.all([import('@electric-sql/pglite'), import('@electric-sql/pglite/contrib/pg_trgm')]));
const loadSocketServer = lazyImport(() => import('@electric-sql/pglite-socket'));

// PostgreSQL's own cache of table pages, inside PGlite's WASM memory. Its default, 128 MB, is resident
// from the start (PostgreSQL initialises it), and caches pages the operating system caches anyway (a data
// directory's files) or that are in memory already (an in-memory database): 32 MB keeps the embedded
// database's hot pages for a fraction (docs/benchmarks.md, "Where the embedded database's memory goes").
const SHARED_BUFFERS = '32MB';

export interface EmbeddedDatabase {
  url: string;
  db: PGlite;
  close(): Promise<void>;
}

export const socketFileName = '.s.PGSQL.5432';

export function embeddedSocketUrl(dataDir: string): string {
  return `postgresql://postgres@localhost/postgres?host=${encodeURIComponent(path.resolve(dataDir))}`;
}

/**
 * Opens PGlite (in memory when dataDir is null) and serves it. With a data directory the server listens on
 * a Unix socket inside it, which is how the CLI reaches the database of a running server.
 */
export async function startEmbeddedDatabase(opts: { dataDir: string | null; fromDump?: File | Blob }): Promise<EmbeddedDatabase> {
  let pgDir: string | undefined;
  if (opts.dataDir) {
    await ownerOnlyDir(opts.dataDir);
    pgDir = path.resolve(opts.dataDir, 'pg');
    await ownerOnlyDir(pgDir);
  }
  const db = await openPGlite({ dataDir: pgDir, fromDump: opts.fromDump });
  // The files PGlite wrote as it opened (or an older version of this service left) become the owner's;
  // PostgreSQL creates later ones 0600 itself.
  if (pgDir) await ownerOnlyTree(pgDir);
  const served = await serveEmbedded(db, opts.dataDir);
  return {
    url: served.url,
    db,
    async close() {
      await served.stop();
      await db.close();
    },
  };
}

/** PGlite with the extensions the migrations need (in memory without dataDir), not yet served. */
export async function openPGlite(opts: { dataDir?: string; fromDump?: File | Blob }): Promise<PGlite> {
  const [{ PGlite }, { pg_trgm }] = await loadPGlite();
  return PGlite.create({
    dataDir: opts.dataDir,
    extensions: { pg_trgm },
    loadDataDir: opts.fromDump,
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`],
  });
}

/**
 * Serves an open PGlite over the Postgres wire protocol: on a Unix socket inside dataDir, or on a loopback
 * port when dataDir is null. stop() cuts every connection; the database stays open.
 */
export async function serveEmbedded(db: PGlite, dataDir: string | null): Promise<{ url: string; stop(): Promise<void> }> {
  const { PGLiteSocketServer } = await loadSocketServer();
  const server = dataDir
    ? new PGLiteSocketServer({ db, path: path.resolve(dataDir, socketFileName), maxConnections: 64 })
    : new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 64 });
  keepExtendedQueriesTogether(server);
  await server.start();
  const url = dataDir ? embeddedSocketUrl(dataDir) : `postgresql://postgres@${server.getServerConn()}/postgres`;
  return { url, stop: () => server.stop() };
}
