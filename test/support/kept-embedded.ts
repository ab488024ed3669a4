// PGlite for test files: loading the migrated dump into a new embedded database costs about as much CPU as
// a small file's tests (0.5-1 s, most of it unpacking 1 200 files into PGlite's in-memory file system). Files
// run one after another in a worker that keeps its modules (isolate: false), so each worker keeps one
// embedded database and gives it to its files in turn. When a file closes it, it is made as loaded again:
// every connection is cut (each file gets a socket server of its own), the session's state is discarded,
// the tables are emptied, the rows the migrations seed are put back and the sequences set back. A database
// whose schema or migration records a file changed is thrown away, never passed on. A file that wants
// another database while the kept one is in use gets one of its own, loaded from the dump as before.
import type { PGlite } from '@electric-sql/pglite';
import { openPGlite, serveEmbedded } from '../../src/db/embedded.js';

const SCHEMAS = `('public', 'graphile_worker')`;
// Bookkeeping that the migrations own; kept as it is, and part of the fingerprint.
const KEPT_TABLES = new Set(['public._prisma_migrations', 'graphile_worker.migrations']);
const SEED_SCHEMA = 'test_seed';

// Everything a file could change about the database's shape, and the migration records.
const FINGERPRINT = `
  SELECT md5(string_agg(item, ',' ORDER BY item)) AS fingerprint FROM (
    SELECT n.nspname || '.' || c.relname || ':' || c.relkind::text || ':' || coalesce(a.attname, '') || ':' || coalesce(format_type(a.atttypid, a.atttypmod), '') AS item
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      WHERE n.nspname IN ${SCHEMAS}
    UNION ALL SELECT 'trigger:' || tgname || ':' || tgenabled::text FROM pg_trigger WHERE NOT tgisinternal
    UNION ALL SELECT 'function:' || p.proname || ':' || md5(p.prosrc) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname IN ${SCHEMAS}
    UNION ALL SELECT 'prisma:' || migration_name || ':' || checksum || ':' || (finished_at IS NOT NULL) FROM public._prisma_migrations
    UNION ALL SELECT 'worker:' || id FROM graphile_worker.migrations
  ) items`;

interface Kept {
  db: PGlite;
  fingerprint: string;
  // Emptied and refilled at each reset, in one statement.
  resetSql: string;
  inUse: boolean;
}

let kept: Kept | undefined;

const quoted = (schema: string, table: string) => `"${schema}"."${table}"`;

async function fingerprintOf(db: PGlite): Promise<string> {
  return (await db.query<{ fingerprint: string }>(FINGERPRINT)).rows[0]!.fingerprint;
}

// Reads what a reset must restore: the tables, which of them the migrations filled, the sequences.
async function prepare(db: PGlite): Promise<Kept> {
  const tables = (await db.query<{ s: string; t: string }>(`SELECT schemaname AS s, tablename AS t FROM pg_tables WHERE schemaname IN ${SCHEMAS}`)).rows
    .map(({ s, t }) => ({ schema: s, table: t }))
    .filter(({ schema, table }) => !KEPT_TABLES.has(`${schema}.${table}`));
  const statements = [`CREATE SCHEMA ${SEED_SCHEMA}`];
  const restore: string[] = [];
  for (const { schema, table } of tables) {
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${quoted(schema, table)}`);
    if (rows[0]!.n === 0) continue;
    statements.push(`CREATE TABLE ${quoted(SEED_SCHEMA, `${schema}.${table}`)} AS SELECT * FROM ${quoted(schema, table)}`);
    restore.push(`INSERT INTO ${quoted(schema, table)} SELECT * FROM ${quoted(SEED_SCHEMA, `${schema}.${table}`)}`);
  }
  await db.exec(statements.join(';\n'));
  const sequences = (await db.query<{ s: string; q: string; last: string | null }>(
    `SELECT schemaname AS s, sequencename AS q, last_value::text AS last FROM pg_sequences WHERE schemaname IN ${SCHEMAS}`,
  )).rows.map(({ s, q, last }) => (last === null ? `SELECT setval('${quoted(s, q)}', 1, false)` : `SELECT setval('${quoted(s, q)}', ${last}, true)`));
  const resetSql = [
    `TRUNCATE ${tables.map(({ schema, table }) => quoted(schema, table)).join(', ')} CASCADE`,
    ...restore,
    ...sequences,
  ].join(';\n');
  return { db, fingerprint: await fingerprintOf(db), resetSql, inUse: false };
}

// False when a file changed the schema: that database is not handed on. A reset that fails is an error
// of its own, never a quiet "not reusable": that once hid a reset that always failed, and every file
// loaded the dump again.
async function reset(entry: Kept): Promise<boolean> {
  // PGlite has one session for every connection: what one file's connections left in it goes, an open
  // transaction first. Each on its own: several statements in one exec are one transaction block, and
  // DISCARD ALL refuses to run in one.
  await entry.db.exec('ROLLBACK');
  await entry.db.exec('DISCARD ALL');
  if ((await fingerprintOf(entry.db)) !== entry.fingerprint) return false;
  await entry.db.exec(entry.resetSql);
  return true;
}

/** The worker's kept embedded database, served on a port of its own; null while another file holds it. */
export async function takeKeptDatabase(load: () => Promise<PGlite>): Promise<{ url: string; close(): Promise<void> } | null> {
  if (kept?.inUse) return null;
  if (!kept) {
    const db = await load();
    kept = await prepare(db);
  }
  const entry = kept;
  entry.inUse = true;
  const served = await serveEmbedded(entry.db, null);
  return {
    url: served.url,
    async close() {
      await served.stop();
      let handedOn = false;
      try {
        handedOn = await reset(entry);
      } finally {
        if (handedOn) {
          entry.inUse = false;
        } else {
          if (kept === entry) kept = undefined;
          await entry.db.close();
        }
      }
    },
  };
}

export const loadFromDump = (dump: Blob) => openPGlite({ fromDump: dump });
