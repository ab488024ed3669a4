// A named statement's result is described by the server on its first execution on a connection only
// (src/db/described-statements.ts); later executions send Bind and Execute alone and still answer the
// same rows, parsed the same way. PostgreSQL only: the embedded database runs no named statements.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { CamelCaseRows } from '../src/db/camel-case-rows.js';
import { queryDescribedOnce, type Descriptions } from '../src/db/described-statements.js';
import { createKysely } from '../src/db/kysely.js';
import { createTestDatabase, usingPostgres, type TestDatabase } from './support/database.js';

describe.runIf(usingPostgres())('named statements described once per connection', () => {
  let db: TestDatabase;
  let client: pg.Client;
  let describes = 0;
  const descriptions: Descriptions = new Map();
  // Columns renamed as the stores' rows read.
  const camelCase = new CamelCaseRows();
  const keyOf = (column: string) => camelCase.keyOf(column);
  const run = (name: string, text: string, values: unknown[] = []) => queryDescribedOnce(client as unknown as pg.PoolClient, descriptions, { name, text, values }, keyOf);

  beforeAll(async () => {
    db = await createTestDatabase();
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
    // Counts the Describe messages the connection writes.
    const connection = (client as unknown as { connection: { describe: (m: unknown) => void } }).connection;
    const describe = connection.describe.bind(connection);
    connection.describe = (message) => {
      describes++;
      describe(message);
    };
    await client.query('CREATE TEMP TABLE notes (id int PRIMARY KEY, body jsonb, at timestamptz, tags text[])');
  });
  afterAll(async () => {
    await client?.end();
    await db?.close();
  });

  it('describes a statement once and answers the same typed rows after', async () => {
    const at = new Date('2026-11-29T10:11:12.345Z');
    const values = [1, { a: [1, 2] }, at, ['x', 'y']];
    const insert = await run('note.create.t1', 'INSERT INTO notes VALUES ($1, $2, $3, $4) RETURNING id, body, at, tags', values);
    // The caller's parameters are left as they were (a compiled query's may be kept).
    expect(values[2]).toBe(at);
    const read = 'SELECT id, body, at, tags, id + 1 AS next_id FROM notes WHERE id = $1';
    const before = describes;
    const first = await run('note.read.t1', read, [1]);
    const second = await run('note.read.t1', read, [1]);
    const third = await run('note.read.t1', read, [2]);
    expect(describes - before).toBe(1);
    expect(insert.rows).toEqual([{ id: 1, body: { a: [1, 2] }, at, tags: ['x', 'y'] }]);
    expect(first.rows).toEqual([{ id: 1, body: { a: [1, 2] }, at, tags: ['x', 'y'], nextId: 2 }]);
    expect(second.rows).toEqual(first.rows);
    expect(second.rows[0].at).toBeInstanceOf(Date);
    expect(second.fields.map((f) => f.name)).toEqual(['id', 'body', 'at', 'tags', 'nextId']);
    expect(third.rows).toEqual([]);
    // Each row is its own object, not the template.
    expect(second.rows[0]).not.toBe(first.rows[0]);
  });

  it('runs a statement without rows again without describing it', async () => {
    const update = 'UPDATE notes SET tags = $2 WHERE id = $1';
    const before = describes;
    expect((await run('note.update.t2', update, [1, ['z']])).rowCount).toBe(1);
    expect((await run('note.update.t2', update, [9, ['z']])).rowCount).toBe(0);
    expect(describes - before).toBe(1);
    expect((await client.query('SELECT tags FROM notes WHERE id = 1')).rows).toEqual([{ tags: ['z'] }]);
  });

  it('answers a failed execution with the server\'s error and leaves the connection usable', async () => {
    const insert = 'INSERT INTO notes (id) VALUES ($1) RETURNING id';
    expect((await run('note.create.t3', insert, [5])).rows).toEqual([{ id: 5 }]);
    await expect(run('note.create.t3', insert, [5])).rejects.toMatchObject({ code: '23505' });
    expect((await run('note.create.t3', insert, [6])).rows).toEqual([{ id: 6 }]);
    // A value pg cannot send fails before anything runs, and the statement still runs after (pg alone
    // closes it on the server and then never prepares it again on this connection).
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    await expect(run('note.create.t3', insert, [circular])).rejects.toThrow(/circular/);
    expect((await run('note.create.t3', insert, [7])).rows).toEqual([{ id: 7 }]);
    expect((await run('note.create.t3', insert, [8])).rows).toEqual([{ id: 8 }]);
    // The same on a statement's first run.
    await expect(run('note.create.t4', 'INSERT INTO notes (id, body) VALUES ($1, $2) RETURNING id', [9, circular])).rejects.toThrow(/circular/);
    expect((await run('note.create.t4', 'INSERT INTO notes (id, body) VALUES ($1, $2) RETURNING id', [9, {}])).rows).toEqual([{ id: 9 }]);
  });

  it('describes again on a new connection, through the stores\' Kysely', async () => {
    const k = createKysely(db.url, 1, { preparedStatements: true });
    try {
      await k.schema.createTable('kept').temporary().addColumn('id', 'integer').addColumn('made_at', 'timestamptz').execute();
      const at = new Date('2026-01-02T03:04:05.006Z');
      await k.insertInto('kept' as never).values({ id: 1, madeAt: at } as never).execute();
      const read = () => k.selectFrom('kept' as never).select(['id', 'madeAt'] as never).execute();
      // Column names back in camelCase and the date parsed, on the describing run and the ones after.
      expect(await read()).toEqual([{ id: 1, madeAt: at }]);
      expect(await read()).toEqual([{ id: 1, madeAt: at }]);
      expect(await read()).toEqual([{ id: 1, madeAt: at }]);
    } finally {
      await k.destroy();
    }
  });
});
