// Whether a database already holds every committed migration, read from Prisma's own bookkeeping
// (`_prisma_migrations`: one row per applied migration, its checksum the SHA-256 of its migration.sql).
// A restart or a CLI command on a current database then skips the schema engine, whose WASM build took a
// tenth of a start to load and run only to find nothing to do. Anything short of an exact match (a
// missing, failed, rolled back, edited or unknown migration, or no table at all) answers false, and the
// engine decides as before.
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { MigrationList } from '@prisma/schema-engine-wasm';

export interface AppliedMigration {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

export async function migrationsAreCurrent(connectionString: string, migrations: MigrationList): Promise<boolean> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const table = await client.query<{ name: string | null }>(`SELECT to_regclass('_prisma_migrations')::text AS name`);
    if (!table.rows[0]?.name) return false;
    const { rows } = await client.query<AppliedMigration>('SELECT migration_name, checksum, finished_at, rolled_back_at FROM _prisma_migrations');
    return matchesCommitted(rows, migrations);
  } finally {
    await client.end();
  }
}

export function matchesCommitted(rows: AppliedMigration[], migrations: MigrationList): boolean {
  const applied = new Map<string, AppliedMigration>();
  for (const row of rows) {
    if (row.finished_at === null || row.rolled_back_at !== null || applied.has(row.migration_name)) return false;
    applied.set(row.migration_name, row);
  }
  if (applied.size !== migrations.migrationDirectories.length) return false;
  return migrations.migrationDirectories.every((dir) => {
    const row = applied.get(dir.path);
    const content = dir.migrationFile.content;
    return row !== undefined && content.tag === 'ok' && row.checksum === createHash('sha256').update(content.value).digest('hex');
  });
}
