// The stores' SQL builder reaches the same database as Prisma, on PGlite (through the embedded socket)
// and on PostgreSQL, with camelCase names mapped to the snake_case columns both ways.
import { sql } from 'kysely';
import { expect } from 'vitest';
import { compiledStatement } from '../src/db/compiled-statement.js';
import { shapedStatement } from '../src/db/shaped-statement.js';
import type { SqlDb } from '../src/db/kysely.js';
import { enqueue, jobCall } from '../src/stores/job-store.js';
import { json } from '../src/stores/json.js';
import { deliverNotification } from '../src/jobs/specs/notification-deliver.js';
import { test } from './support/fixtures.js';

test('a row Prisma wrote reads back through Kysely with its camelCase fields', async ({ server, owner: user }) => {
  const row = await server.sql
    .selectFrom('users')
    .select(['id', 'email', 'isAdmin', 'createdAt'])
    .where('id', '=', user.id)
    .executeTakeFirstOrThrow();
  expect(row.id).toBe(user.id);
  expect(row.isAdmin).toBe(false);
  expect(row.createdAt).toBeInstanceOf(Date);
  const viaPrisma = await server.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
  expect(row.email).toBe(viaPrisma.email);
});

test('a table and columns with digits and several words map to their snake_case names', async ({ server }) => {
  const count = await server.sql.selectFrom('a2aPushConfigs').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  expect(Number(count.n)).toBe(0);
});

test('a job enqueued in a Kysely transaction exists exactly when the transaction commits', async ({ server }) => {
  // A notification id no row has: the job is only counted, never run to completion (the worker would
  // find nothing to deliver).
  const payload = { notificationId: `ntf_kysely_${Date.now()}` };
  const jobs = async () => {
    const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM graphile_worker._private_jobs WHERE payload->>'notificationId' = ${payload.notificationId}`.execute(server.sql);
    return Number(rows[0]!.n);
  };
  const before = await jobs();
  await expect(
    server.sql.transaction().execute(async (tx) => {
      await enqueue(tx, deliverNotification, payload);
      throw new Error('rolled back');
    }),
  ).rejects.toThrow('rolled back');
  expect(await jobs()).toBe(before);
  await server.sql.transaction().execute((tx) => enqueue(tx, deliverNotification, payload));
  expect(await jobs()).toBe(before + 1);
});

test('a statement compiled once runs with each call\'s values, on the database and in a transaction', async ({ server, owner: a, requester: b }) => {
  const byId = compiledStatement<{ id: string }, { id: string; isAdmin: boolean }>((db, param) =>
    db.selectFrom('users').select(['id', 'isAdmin']).where('id', '=', param<string>('id')).where('isAdmin', '=', false),
  );
  expect((await byId.run(server.sql, { id: a.id })).rows).toEqual([{ id: a.id, isAdmin: false }]);
  expect((await byId.run(server.sql, { id: b.id })).rows).toEqual([{ id: b.id, isAdmin: false }]);
  expect(await server.sql.transaction().execute(async (tx) => (await byId.run(tx, { id: a.id })).rows[0]?.id)).toBe(a.id);
  // The fixed value stays a parameter of its own; the text is the one Kysely builds per call.
  expect(byId.sql(server.sql)).toBe(server.sql.selectFrom('users').select(['id', 'isAdmin']).where('id', '=', a.id).where('isAdmin', '=', false).compile().sql);
  await expect(byId.run(server.sql, {} as { id: string })).rejects.toThrow('no value for id');
});

test('a statement compiled once per shape sends the text and parameters Kysely builds per call, for each shape', async ({ server, owner: a, requester: b }) => {
  type Values = { ids: string[]; admin?: boolean; note: string | null; job: ReturnType<typeof jobCall> };
  const build = (db: SqlDb, v: Values) =>
    db
      .selectFrom('users')
      .select(['id', sql<string | null>`${v.note}::text`.as('note'), sql<string>`(${v.job} IS NULL)::text`.as('job')])
      .where('id', 'in', v.ids)
      .$if(v.admin !== undefined, (q) => q.where('isAdmin', '=', v.admin!));
  const statement = shapedStatement(build);
  // A job call, and a JSON value, are fragments with values of their own: they take parameters too.
  const job = (id: string) => jobCall(deliverNotification, { notificationId: id });
  const calls: Values[] = [
    { ids: [a.id], note: 'one', job: job('n1') },
    { ids: [b.id], note: 'two', job: job('n2') },
    { ids: [a.id, b.id], note: null, job: job('n3') },
    { ids: [b.id], admin: false, note: 'four', job: job('n4') },
    { ids: [a.id], admin: undefined, note: 'five', job: job('n5') },
  ];
  for (const v of calls) {
    const perCall = build(server.sql, v).compile();
    const once = statement.sql(server.sql, v);
    expect(once).toEqual(perCall.sql);
    const { rows } = await statement.run(server.sql, v);
    expect(rows.map((r) => r.id).sort()).toEqual([...v.ids].sort());
    expect(rows.every((r) => r.note === v.note)).toBe(true);
  }
  // The first shape's values were not kept: the second call of that shape answers with its own.
  expect((await statement.run(server.sql, calls[1]!)).rows).toEqual([{ id: b.id, note: 'two', job: 'false' }]);
  expect(await server.sql.transaction().execute(async (tx) => (await statement.run(tx, calls[0]!)).rows[0]?.note)).toBe('one');
  // A JSON value is a parameter as well.
  const echo = shapedStatement((db, v: { value: ReturnType<typeof json> }) => db.selectNoFrom(sql<unknown>`${v.value}`.as('value')));
  expect((await echo.run(server.sql, { value: json({ x: 1 }) })).rows[0]?.value).toEqual({ x: 1 });
  expect((await echo.run(server.sql, { value: json(['y']) })).rows[0]?.value).toEqual(['y']);
});
