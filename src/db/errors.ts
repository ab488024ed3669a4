// Database errors the services recover from.
import { Prisma } from '../generated/prisma/client.js';

// A unique index refused the write: another writer got there first (a slug, an idempotency key).
export const isUniqueViolation = (error: unknown): boolean =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';
