// Columns of a model by its field names, with the type a parameter is cast to, for the statements written
// in SQL on hot paths (services/task-columns.ts, services/payment-columns.ts) whose rows must come back
// exactly as Prisma would give them. A map typed by the model's fields makes the compiler point at it
// when the model gains one.
import type { Db } from './client.js';
import { Prisma } from '../generated/prisma/client.js';

const ENUM_CASTS = ['TaskStatus', 'TaskPriority', 'PaymentMethod', 'PaymentStatus'] as const;
export type Cast = 'text' | 'int' | 'boolean' | 'timestamptz' | 'jsonb' | 'text[]' | (typeof ENUM_CASTS)[number];

export type Columns<Model> = Record<keyof Model, readonly [column: string, cast: Cast]>;

export function isEnumCast(cast: Cast): boolean {
  return (ENUM_CASTS as readonly string[]).includes(cast);
}

// `<alias>.column AS "field", …` for a RETURNING or SELECT that yields the model's rows (enums as text).
// `prefix`: each name prefixed, for a second model in the same row (see rowOf).
export function selectionOf<Model>(columns: Columns<Model>, alias: string, prefix = ''): Prisma.Sql {
  return Prisma.raw(
    Object.entries<readonly [string, Cast]>(columns)
      .map(([field, [column, cast]]) => `${alias}.${column}${isEnumCast(cast) ? '::text' : ''} AS "${prefix}${field}"`)
      .join(', '),
  );
}

// The model's row among the prefixed columns of a joined row; null when its id is null (an outer join
// that found none).
export function rowOf<Model>(columns: Columns<Model>, row: Record<string, unknown>, prefix: string): Model | null {
  if (row[`${prefix}id`] === null || row[`${prefix}id`] === undefined) return null;
  const model: Record<string, unknown> = {};
  for (const field of Object.keys(columns)) model[field] = row[`${prefix}${field}`];
  return model as Model;
}

// One value for a SET clause, cast to its column's type; null when the field is not a plain column value
// (an atomic operation such as { increment }), which the caller then leaves to Prisma.
function valueOf<Model>(columns: Columns<Model>, field: string, value: unknown): Prisma.Sql | null {
  const entry = (columns as Record<string, readonly [string, Cast] | undefined>)[field];
  if (!entry) return null;
  const [, cast] = entry;
  if (value === null || value === Prisma.DbNull || value === Prisma.JsonNull) {
    // JsonNull is JSON's null, DbNull (and null elsewhere) the column's NULL.
    return value === Prisma.JsonNull ? Prisma.sql`'null'::jsonb` : Prisma.sql`NULL`;
  }
  if (cast === 'jsonb') return Prisma.sql`${JSON.stringify(value)}::jsonb`;
  if (value instanceof Date) return cast === 'timestamptz' ? Prisma.sql`${value}::timestamptz` : null;
  if (Array.isArray(value)) return cast === 'text[]' && value.every((v) => typeof v === 'string') ? Prisma.sql`${value}::text[]` : null;
  if (typeof value === 'object') return null;
  return Prisma.sql`${value}::${Prisma.raw(isEnumCast(cast) ? `"${cast}"` : cast)}`;
}

// `column = value, …` for the fields given (undefined ones left out), or null when one of them is not a
// plain value SQL can set here.
export function setClauseOf<Model>(columns: Columns<Model>, data: Record<string, unknown>): Prisma.Sql | null {
  const parts: Prisma.Sql[] = [];
  for (const [field, value] of Object.entries(data)) {
    if (value === undefined) continue;
    const sql = valueOf(columns, field, value);
    if (!sql) return null;
    parts.push(Prisma.sql`${Prisma.raw(columns[field as keyof Model][0])} = ${sql}`);
  }
  return Prisma.join(parts, ', ');
}

// Writes that ride on a statement which yields one row `m` (an insert, a task move), in that statement
// (one round trip), and happen only if the row is: `ctes`, further WITH items that may read `m`, and
// `job`, a jobCall (jobs/enqueue.ts) added once for the row.
export interface Riders {
  ctes?: Prisma.Sql;
  job?: Prisma.Sql;
}

// The riders' SQL: `ctes` goes after the statement's own WITH items, `select` at the end of its select list.
export function riderSql(riders: Riders = {}): { ctes: Prisma.Sql; select: Prisma.Sql } {
  return {
    ctes: riders.ctes ? Prisma.sql`, ${riders.ctes}` : Prisma.empty,
    select: riders.job ? Prisma.sql`, (${riders.job}).id::text AS "riderJob"` : Prisma.empty,
  };
}

// The row without the column the riders' job added.
export function withoutRiders<Row extends object>(row: Row): Row {
  delete (row as Partial<Record<'riderJob', unknown>>).riderJob;
  return row;
}

// Inserts one row of a model in SQL and returns it as Prisma would. Fields left undefined take their
// column defaults; a model's updatedAt is set from the process's clock, as Prisma's @updatedAt sets it.
export async function insertRow<Model>(db: Db, table: string, columns: Columns<Model>, data: object, riders: Riders = {}): Promise<Model> {
  const names: string[] = [];
  const values: Prisma.Sql[] = [];
  const stamped = 'updatedAt' in columns ? { ...data, updatedAt: new Date() } : data;
  for (const [field, value] of Object.entries(stamped)) {
    if (value === undefined) continue;
    const sql = valueOf(columns, field, value);
    if (!sql) throw new Error(`${table}: an insert in SQL writes plain values only (${field})`);
    names.push(columns[field as keyof Model][0]);
    values.push(sql);
  }
  const ride = riderSql(riders);
  const rows = await db.$queryRaw<Model[]>`
    WITH m AS (INSERT INTO ${Prisma.raw(table)} (${Prisma.raw(names.join(', '))}) VALUES (${Prisma.join(values, ', ')}) RETURNING *)${ride.ctes}
    SELECT ${selectionOf(columns, 'm')}${ride.select} FROM m`;
  return withoutRiders(rows[0] as Model & object);
}
