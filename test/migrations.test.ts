// The committed migrations must build exactly what prisma/schema.prisma describes; a change to the schema
// without a migration (npm run db:migration -- NAME) fails here.
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, migrationsDir, pendingSchemaChanges, schemaPath } from '../src/db/schema-engine.js';
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
  it('agree with schema.prisma', async () => {
    const pending = await pendingSchemaChanges(db.url);
    // On failure the message is the SQL a new migration would hold.
    expect(pending, 'schema.prisma has changes with no migration; run: npm run db:migration -- NAME').toBe('');
  });

  it('would see a field added to schema.prisma without a migration', async () => {
    const schema = await readFile(schemaPath, 'utf8');
    const withExtra = schema.replace(/^model User \{$/m, 'model User {\n  testOnlyExtra String? @map("test_only_extra")');
    expect(withExtra).not.toBe(schema);
    const file = path.join(scratch, 'schema.prisma');
    await writeFile(file, withExtra);
    const pending = await pendingSchemaChanges(db.url, file);
    expect(pending).toMatch(/ALTER TABLE "users" ADD COLUMN\s+"test_only_extra" TEXT/);
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
});
