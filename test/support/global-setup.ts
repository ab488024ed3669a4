// Runs once per `vitest run`, before any test file: builds one migrated database (Prisma's migrations and
// graphile-worker's schema, through the service's own code) that every test file then copies instead of
// migrating its own. PostgreSQL: a template database, cloned with CREATE DATABASE … TEMPLATE. PGlite: a
// dump of the migrated data directory, loaded by each file's embedded database.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedDatabase } from '../../src/db/embedded.js';
import { applyMigrations } from '../../src/db/schema-engine.js';
import { installJobSchema } from '../../src/worker/worker.js';
import { createLogger } from '../../src/logger.js';

declare module 'vitest' {
  export interface ProvidedContext {
    // PostgreSQL: the name of the migrated template database on DATABASE_URL's server.
    templateDatabase: string | null;
    // PGlite: the file holding the migrated data directory (PGlite's dumpDataDir, uncompressed tar).
    pgliteDump: string | null;
    // PGlite: the same database as a DATA_DIR's `pg` directory, for server and CLI processes to copy.
    pgliteDataDir: string | null;
  }
}

const quiet = createLogger('silent');

async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function migrate(url: string): Promise<void> {
  await applyMigrations(url);
  await installJobSchema(url, quiet);
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The service's and the CLI's bundles, current before any test spawns them (a stale one would
  // otherwise be rebuilt by the first few processes at once).
  execFileSync(process.execPath, ['scripts/bundle.mjs', '--if-stale'], { stdio: 'inherit' });
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    // Unique per run, so that two runs on one server (two worktrees) never share or drop each other's.
    const name = `tpl_${randomBytes(6).toString('hex')}`;
    await adminQuery(serverUrl, `CREATE DATABASE ${name}`);
    await migrate(databaseUrl(serverUrl, name));
    project.provide('templateDatabase', name);
    project.provide('pgliteDump', null);
    project.provide('pgliteDataDir', null);
    return () => adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
  const embedded = await startEmbeddedDatabase({ dataDir: null });
  let dir: string | undefined;
  try {
    await migrate(embedded.url);
    const dump = await embedded.db.dumpDataDir('none');
    dir = await mkdtemp(path.join(tmpdir(), 'pglite-template-'));
    const file = path.join(dir, 'migrated.tar');
    await writeFile(file, Buffer.from(await dump.arrayBuffer()));
    project.provide('pgliteDump', file);
    project.provide('templateDatabase', null);
    // Written by the embedded database of a DATA_DIR (what `npm start` opens), loaded from the dump.
    const dataDir = path.join(dir, 'data');
    await (await startEmbeddedDatabase({ dataDir, fromDump: dump })).close();
    project.provide('pgliteDataDir', path.join(dataDir, 'pg'));
  } finally {
    await embedded.close();
  }
  const made = dir;
  return () => rm(made, { recursive: true, force: true });
}
