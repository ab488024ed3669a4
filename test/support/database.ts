// A fresh, migrated database for one test file: an in-memory PGlite by default (the worker's kept one,
// made as new: kept-embedded.ts), or a new database on
// the PostgreSQL server named by DATABASE_URL (the CI's second run), dropped afterwards. Either is a copy
// of the database the run's global setup migrated once (global-setup.ts), not migrated again here.
import { randomBytes } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { startEmbeddedDatabase } from '../../src/db/embedded.js';
import { loadFromDump, takeKeptDatabase } from './kept-embedded.js';

export interface TestDatabase {
  url: string;
  kind: 'pglite' | 'postgresql';
  close(): Promise<void>;
}

export const usingPostgres = () => Boolean(process.env.DATABASE_URL);

export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const file = inject('pgliteDump');
    if (!file) throw new Error('no migrated PGlite dump: run the tests through vitest (test/support/global-setup.ts)');
    const dump = await openAsBlob(file);
    const reused = await takeKeptDatabase(() => loadFromDump(dump));
    if (reused) return { url: reused.url, kind: 'pglite', close: () => reused.close() };
    const embedded = await startEmbeddedDatabase({ dataDir: null, fromDump: dump });
    return { url: embedded.url, kind: 'pglite', close: () => embedded.close() };
  }
  const template = inject('templateDatabase');
  if (!template) throw new Error('no template database: run the tests through vitest (test/support/global-setup.ts)');
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    kind: 'postgresql',
    async close() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      // Pools of the code under test may still be finishing their disconnect; killing those sessions
      // would surface as errors in the test, so wait for them first and force only as a last resort.
      for (let attempt = 0; ; attempt++) {
        try {
          await client.query(`DROP DATABASE IF EXISTS ${name}${attempt >= 50 ? ' WITH (FORCE)' : ''}`);
          break;
        } catch (error) {
          if ((error as { code?: string }).code !== '55006' || attempt >= 50) throw error;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      await client.end();
    },
  };
}

/**
 * A new DATA_DIR for a server or CLI process. On PGlite it holds a copy of the migrated database, so the
 * process opens it instead of creating and migrating one (server.test starts one from an empty
 * directory); with DATABASE_URL it is empty (it only keeps the server key).
 */
export async function testDataDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  const migrated = usingPostgres() ? null : inject('pgliteDataDir');
  if (migrated) await cp(migrated, path.join(dir, 'pg'), { recursive: true });
  return dir;
}
