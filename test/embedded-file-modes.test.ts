// The embedded database's directory is its owner's only: DATA_DIR and every directory under it 0700,
// every file 0600, on a fresh directory, after writes, and on a directory an older version left open.
import { chmod, lstat, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import { testDataDir, usingPostgres } from './support/database.js';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

// Every path under `dir` whose permission bits are not the owner-only ones, with its mode.
async function looseModes(dir: string): Promise<string[]> {
  const loose: string[] = [];
  const walk = async (at: string) => {
    const stat = await lstat(at);
    const mode = stat.mode & 0o777;
    if (stat.isDirectory()) {
      if (mode !== 0o700) loose.push(`${at} ${mode.toString(8)}`);
      for (const name of await readdir(at)) await walk(path.join(at, name));
    } else if (stat.isFile() && mode !== 0o600) {
      loose.push(`${at} ${mode.toString(8)}`);
    }
  };
  await walk(dir);
  return loose;
}

async function openAndWrite(dataDir: string) {
  const database = await openDatabase({ databaseUrl: null, dataDir, mode: 'own' });
  // Enough rows to write table files and WAL beyond what the database started with.
  await database.prisma.$executeRawUnsafe('CREATE TABLE IF NOT EXISTS mode_probe (v text)');
  await database.prisma.$executeRawUnsafe("INSERT INTO mode_probe SELECT repeat('x', 500) FROM generate_series(1, 2000)");
  return database;
}

// The embedded database only: the run on a PostgreSQL server would test the same thing again, from an
// empty directory (no migrated copy there), and the PGlite run covers it.
describe.skipIf(usingPostgres())('the embedded database directory', () => {
  it('is created 0700 with files 0600, and stays so while the database writes', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'tm-modes-'));
    dirs.push(root);
    const dataDir = path.join(root, 'data');
    const database = await openAndWrite(dataDir);
    try {
      expect((await readdir(path.join(dataDir, 'pg'))).length).toBeGreaterThan(5);
      expect(await looseModes(dataDir)).toEqual([]);
    } finally {
      await database.close();
    }
    expect(await looseModes(dataDir)).toEqual([]);
  }, 180_000);

  it('has the modes of an existing, readable directory fixed at start', async () => {
    // A directory holding a migrated database already (on PGlite runs the suite's copy: a fresh one was
    // the first test's subject).
    const dataDir = await testDataDir('tm-modes-');
    dirs.push(dataDir);
    await (await openAndWrite(dataDir)).close();
    // As an older version left it: everything readable and writable by everyone.
    await chmod(dataDir, 0o777);
    await chmod(path.join(dataDir, 'pg'), 0o755);
    await chmod(path.join(dataDir, 'pg', 'PG_VERSION'), 0o666);
    await mkdir(path.join(dataDir, 'pg', 'extra'), { mode: 0o777 });
    await writeFile(path.join(dataDir, 'pg', 'extra', 'note'), 'x', { mode: 0o666 });
    expect((await looseModes(dataDir)).length).toBeGreaterThan(0);

    const database = await openDatabase({ databaseUrl: null, dataDir, mode: 'own' });
    try {
      expect(await looseModes(dataDir)).toEqual([]);
    } finally {
      await database.close();
    }
  }, 180_000);
});
