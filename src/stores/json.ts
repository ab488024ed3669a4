// JSON values for jsonb columns. A `pg` parameter that is an array would be sent as a PostgreSQL array, so
// JSON goes as its text with a cast; the column types of the generated tables say which columns are JSON
// (prisma-kysely types them `unknown`), and the stores' input types ask for a `JsonSql` there.
import { sql, type RawBuilder } from 'kysely';
import { sqlWithValues } from '../db/shaped-statement.js';
import type { Prisma } from '../generated/prisma/client.js';

declare const jsonBrand: unique symbol;
export type JsonSql = RawBuilder<unknown> & { readonly [jsonBrand]: true };

// A JSON value as the stores write it.
export type JsonValue = Prisma.InputJsonValue;

export function json(value: Prisma.InputJsonValue | null): JsonSql {
  return sqlWithValues('json', { text: JSON.stringify(value) }, (v) => sql`${v.text}::jsonb` as JsonSql);
}

// The keys of a table whose column is JSON.
type JsonKeys<T> = { [K in keyof T]-?: unknown extends T[K] ? K : never }[keyof T];

// A table's insert or update values with its JSON columns given as `json(…)` (or null for SQL NULL).
export type WithJson<T> = { [K in keyof T]: K extends JsonKeys<T> ? JsonSql | null | undefined : T[K] };

// A row read back: JSON columns hold what the driver parsed from the column's JSON text.
export function jsonOf(value: unknown): Prisma.JsonValue {
  return value as Prisma.JsonValue;
}
