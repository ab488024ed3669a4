// The worker's kept embedded database (test/support/kept-embedded.ts) reaches the next file as loaded from
// the dump: no rows of the last file, the seeded rows back, no connection of the last file still open, and
// never with a schema the last file changed.
import { openAsBlob } from 'node:fs';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { loadFromDump, takeKeptDatabase } from './support/kept-embedded.js';
import { usingPostgres } from './support/database.js';

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

describe.skipIf(usingPostgres())('the kept embedded database', () => {
  // Counts the loads: a database handed on is the same one, made as loaded, not a new load of the dump.
  let loads = 0;
  const load = async () => {
    loads++;
    return loadFromDump(await openAsBlob(inject('pgliteDump')!));
  };

  it('is handed on empty, with the seeded rows and sequences as loaded, and one holder at a time', async () => {
    const first = (await takeKeptDatabase(load))!;
    expect(await takeKeptDatabase(load)).toBeNull();
    const [seeded] = await query<{ n: number }>(first.url, 'SELECT count(*)::int AS n FROM search_phrases');
    await query(first.url, `INSERT INTO users (id, email, name, created_at, updated_at) VALUES ('usr_left', 'left@example.com', 'Left', now(), now())`);
    await query(first.url, `DELETE FROM search_phrases`);
    const jobBefore = (await query<{ id: string }>(first.url, `SELECT nextval('graphile_worker.jobs_id_seq1')::text AS id`))[0]!.id;
    // A connection the file forgot: cut when the database is handed on.
    const forgotten = new pg.Client({ connectionString: first.url });
    await forgotten.connect();
    forgotten.on('error', () => {});
    // PGlite has one session: a setting one file made would reach the next.
    await forgotten.query(`SET statement_timeout = '4321ms'`);
    await first.close();
    await expect(forgotten.query('SELECT 1')).rejects.toThrow();

    const loadsBefore = loads;
    const second = (await takeKeptDatabase(load))!;
    try {
      expect(loads).toBe(loadsBefore);
      expect(second.url).not.toBe(first.url);
      expect((await query<{ statement_timeout: string }>(second.url, 'SHOW statement_timeout'))[0]!.statement_timeout).toBe('0');
      expect(await query(second.url, `SELECT id FROM users`)).toEqual([]);
      expect((await query<{ n: number }>(second.url, 'SELECT count(*)::int AS n FROM search_phrases'))[0]!.n).toBe(seeded!.n);
      expect((await query<{ id: string }>(second.url, `SELECT nextval('graphile_worker.jobs_id_seq1')::text AS id`))[0]!.id).toBe(jobBefore);
    } finally {
      await second.close();
    }
  });

  it('is not handed on after a file changed its schema', async () => {
    const first = (await takeKeptDatabase(load))!;
    await query(first.url, 'ALTER TABLE users ADD COLUMN left_behind text');
    await first.close();
    const loadsBefore = loads;
    const second = (await takeKeptDatabase(load))!;
    try {
      expect(loads).toBe(loadsBefore + 1);
      expect(await query(second.url, `SELECT column_name FROM information_schema.columns WHERE table_name = 'users' AND column_name = 'left_behind'`)).toEqual([]);
    } finally {
      await second.close();
    }
  });
});
