// PostgreSQL's answer to a statement of the stores (Kysely over pg), by SQLSTATE.
export const isSqlUniqueViolation = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
