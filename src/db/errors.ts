// Database errors the services recover from.
import pg from 'pg';
import { Prisma } from '../generated/prisma/client.js';

// A unique index refused the write: another writer got there first (a slug, an idempotency key). P2002
// from a model call; a raw statement reports it through the driver adapter's cause.
export function isUniqueViolation(error: unknown): boolean {
  // A store's statement on `deps.sql` (Kysely over node-postgres).
  if (error instanceof pg.DatabaseError) return error.code === '23505';
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  if (error.code === 'P2002') return true;
  const cause = adapterCause(error);
  return cause !== null && (cause.kind === 'UniqueConstraintViolation' || cause.sqlState === '23505');
}

// What the driver adapter reported under a Prisma error: its kind of failure and PostgreSQL's SQLSTATE
// (`originalCode` on the kinds Prisma names, `code` on the others).
function adapterCause(error: InstanceType<typeof Prisma.PrismaClientKnownRequestError>): { kind: string; sqlState: string } | null {
  const meta = error.meta as { driverAdapterError?: { cause?: { kind?: string; code?: string; originalCode?: string } } } | undefined;
  const cause = meta?.driverAdapterError?.cause;
  return cause ? { kind: cause.kind ?? '', sqlState: cause.originalCode ?? cause.code ?? '' } : null;
}

// A foreign key refused the write: the row it points at is gone (deleted by a concurrent request).
export function isForeignKeyViolation(error: unknown): boolean {
  if (error instanceof pg.DatabaseError) return error.code === '23503';
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  if (error.code === 'P2003') return true;
  const cause = adapterCause(error);
  return cause !== null && (cause.kind === 'ForeignKeyConstraintViolation' || cause.sqlState === '23503');
}

// The database is out of reach or refusing connections (down, restarting, at its connection limit, the
// pool waited too long for a free connection, or a transaction ran out of time). Nothing was wrong with
// the request: the caller is told to try again (503), and the logs say what happened.
// P2028: a transaction that ran out of time (or could not start in time) was rolled back whole; on a
// database or host this slow the request itself was fine and a retry may pass.
const UNAVAILABLE_PRISMA_CODES = new Set(['P1001', 'P1002', 'P1017', 'P2024', 'P2028', 'P2037']);
const UNAVAILABLE_ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'TooManyConnections', 'ConnectionClosed', 'SocketTimeout']);
// PostgreSQL's too_many_connections, its shutdown and startup states, its connection exceptions, and a
// statement or an idle transaction that ran out of time (db/kysely.ts SERVER_TIMEOUT_MS).
const UNAVAILABLE_SQLSTATE = /^(53300|57P0[123]|08[0-9A-Z]{3}|57014|25P03)$/;
// A connection that failed at the socket (node-postgres directly, as the job queue uses it).
const UNAVAILABLE_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE']);

export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof Prisma.PrismaClientKnownRequestError) {
    if (UNAVAILABLE_PRISMA_CODES.has(error.code)) return true;
    const cause = adapterCause(error);
    return cause !== null && (UNAVAILABLE_ADAPTER_KINDS.has(cause.kind) || UNAVAILABLE_SQLSTATE.test(cause.sqlState));
  }
  if (error instanceof Prisma.PrismaClientInitializationError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_SOCKET_CODES.has(code));
}
