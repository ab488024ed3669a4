// What is left of the hand-made column maps: services/user-columns.ts (the API key read) still uses
// selectionOf. That read belongs to the accounts work, which moves it to a Kysely store; this file goes
// with it. Every other table's SQL is in src/stores/ (Kysely, types generated from schema.prisma).
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
