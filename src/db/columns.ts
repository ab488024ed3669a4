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
export function selectionOf<Model>(columns: Columns<Model>, alias: string): Prisma.Sql {
  return Prisma.raw(
    Object.entries<readonly [string, Cast]>(columns)
      .map(([field, [column, cast]]) => `${alias}.${column}${isEnumCast(cast) ? '::text' : ''} AS "${field}"`)
      .join(', '),
  );
}
