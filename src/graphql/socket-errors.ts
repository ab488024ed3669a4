// How a WebSocket (graphql-ws) answers a failure. Credentials that do not verify close the socket with
// 4401, a refusal of the whole connection with 4403; anything else fails only the one operation, with a
// coded GraphQL error. Never graphql-ws's default 4500, whose reason is the internal error's message.
import { GraphQLError } from 'graphql';
import { AppError, temporarilyUnavailable } from '../errors.js';
import { isDatabaseUnavailable } from '../db/errors.js';
import type { Logger } from '../logger.js';

export const CLOSE_UNAUTHORIZED = 4401;
export const CLOSE_FORBIDDEN = 4403;

export function closeCodeFor(error: unknown): { code: number; reason: string } | null {
  if (!(error instanceof AppError)) return null;
  if (error.code === 'UNAUTHENTICATED') return { code: CLOSE_UNAUTHORIZED, reason: 'Unauthorized' };
  if (error.code === 'FORBIDDEN') return { code: CLOSE_FORBIDDEN, reason: 'Forbidden' };
  return null;
}

/** How to close a socket whose connection could not be accepted; unexpected failures stay unexplained. */
export function connectionRefusal(error: unknown, logger: Pick<Logger, 'error'>): { code: number; reason: string } {
  const close = closeCodeFor(error);
  if (close) return close;
  logger.error({ err: error }, 'websocket connection failed');
  return { code: 4500, reason: 'Internal server error' };
}

/** The errors to send for an operation that failed before it started (syntax, limits, unexpected). */
export function operationErrors(error: unknown, logger: Pick<Logger, 'error'>): GraphQLError[] {
  if (error instanceof GraphQLError) return [error];
  if (isDatabaseUnavailable(error)) return [temporarilyUnavailable()];
  logger.error({ err: error }, 'websocket operation failed');
  return [new GraphQLError('internal error', { extensions: { code: 'INTERNAL' } })];
}
