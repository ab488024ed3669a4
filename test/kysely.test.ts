// The stores' SQL builder reaches the same database as Prisma, on PGlite (through the embedded socket)
// and on PostgreSQL, with camelCase names mapped to the snake_case columns both ways.
import { expect } from 'vitest';
import { test } from './support/fixtures.js';

test('a row Prisma wrote reads back through Kysely with its camelCase fields', async ({ server }) => {
  const user = await server.createUser();
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
