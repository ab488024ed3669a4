// The committed migrations must build exactly what prisma/schema.prisma describes; a change to the schema
// without a migration (npm run db:migration -- NAME) fails here.
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, loadMigrations, migrationsDir, pendingSchemaChanges, schemaPath } from '../src/db/schema-engine.js';
import { matchesCommitted, migrationsAreCurrent, type AppliedMigration } from '../src/db/migrations-current.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';

let db: TestDatabase;
let scratch: string;

beforeAll(async () => {
  db = await createTestDatabase();
  scratch = await mkdtemp(path.join(tmpdir(), 'migrations-test-'));
});
afterAll(async () => {
  await db?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('migrations', () => {
  // One replay of the migrations on a shadow database (the costly part) answers both questions: against
  // schema.prisma with one field added, the only change the diff may name is that field. So the check sees
  // a field added without a migration, and the migrations agree with the rest of the schema.
  it('agree with schema.prisma, and would see a field added to it without a migration', async () => {
    const schema = await readFile(schemaPath, 'utf8');
    const withExtra = schema.replace(/^model User \{$/m, 'model User {\n  testOnlyExtra String? @map("test_only_extra")');
    expect(withExtra).not.toBe(schema);
    const file = path.join(scratch, 'schema.prisma');
    await writeFile(file, withExtra);
    const pending = await pendingSchemaChanges(db.url, file);
    const statements = pending.replace(/^--.*$/gm, '').trim();
    expect(statements).toMatch(/ALTER TABLE "users" ADD COLUMN\s+"test_only_extra" TEXT;/);
    // On failure the message is the SQL a new migration would hold (with the test's column).
    expect(statements.replace(/ALTER TABLE "users" ADD COLUMN\s+"test_only_extra" TEXT;/, '').trim(), 'schema.prisma has changes with no migration; run: npm run db:migration -- NAME').toBe('');
  });

  it('are recorded as applied, and applying again does nothing', async () => {
    const names = (await readdir(migrationsDir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name).sort();
    expect(names.length).toBeGreaterThan(0);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ migration_name: string }>(
        'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name',
      );
      expect(rows.map((r) => r.migration_name)).toEqual(names);
    } finally {
      await client.end();
    }
    expect(await applyMigrations(db.url)).toEqual([]);
  });

  // A start on a current database skips the schema engine; anything else leaves the decision to it.
  describe('are seen as current only when every one is applied as committed', () => {
    let committed: Awaited<ReturnType<typeof loadMigrations>>;
    let asApplied: AppliedMigration[];
    beforeAll(async () => {
      committed = await loadMigrations();
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      try {
        asApplied = (await client.query<AppliedMigration>('SELECT migration_name, checksum, finished_at, rolled_back_at FROM _prisma_migrations')).rows;
      } finally {
        await client.end();
      }
    });
    const changed = (name: string, change: Partial<AppliedMigration>) => asApplied.map((row) => (row.migration_name === name ? { ...row, ...change } : row));
    const first = () => asApplied.map((r) => r.migration_name).sort()[0]!;

    it('current as migrated, read from the database', async () => {
      expect(await migrationsAreCurrent(db.url, committed)).toBe(true);
      expect(matchesCommitted(asApplied, committed)).toBe(true);
    });
    it('not with a migration missing', () => expect(matchesCommitted(asApplied.filter((r) => r.migration_name !== first()), committed)).toBe(false));
    it('not with a migration edited after it was applied', () => expect(matchesCommitted(changed(first(), { checksum: 'x' }), committed)).toBe(false));
    it('not with a migration that failed or was rolled back', () => {
      expect(matchesCommitted(changed(first(), { finished_at: null }), committed)).toBe(false);
      expect(matchesCommitted(changed(first(), { rolled_back_at: new Date() }), committed)).toBe(false);
    });
    it('not with a migration this code does not know', () =>
      expect(matchesCommitted([...asApplied, { migration_name: '29990101000000_later', checksum: 'y', finished_at: new Date(), rolled_back_at: null }], committed)).toBe(false));
    it('not on a database without the bookkeeping table', async () => {
      const bare = await createTestDatabase();
      const client = new pg.Client({ connectionString: bare.url });
      await client.connect();
      try {
        await client.query('DROP TABLE _prisma_migrations');
        expect(await migrationsAreCurrent(bare.url, committed)).toBe(false);
      } finally {
        await client.end();
        await bare.close();
      }
    });
  });
});
