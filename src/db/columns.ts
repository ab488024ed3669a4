// Columns of a model by its field names, with the type a parameter is cast to, for the statements written
// in SQL on hot paths (services/task-columns.ts, services/payment-columns.ts) whose rows must come back
// exactly as Prisma would give them. A map typed by the model's fields makes the compiler point at it
// when the model gains one.
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

// The column list and the values of an INSERT for the fields given (undefined ones left out, so their
// column defaults apply), or null when one of them is not a plain value SQL can write here.
export function insertListsOf<Model>(columns: Columns<Model>, data: Record<string, unknown>): { names: Prisma.Sql; values: Prisma.Sql } | null {
  const names: string[] = [];
  const values: Prisma.Sql[] = [];
  for (const [field, value] of Object.entries(data)) {
    if (value === undefined) continue;
    const sql = valueOf(columns, field, value);
    if (!sql) return null;
    names.push(columns[field as keyof Model][0]);
    values.push(sql);
  }
  return { names: Prisma.raw(names.join(', ')), values: Prisma.join(values, ', ') };
}
