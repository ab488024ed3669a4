import type { ServerResponse } from 'node:http';
import { AppError, statusOf } from '../errors.js';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendError(
  res: ServerResponse,
  error: { code: string; message: string; field?: string; details?: Record<string, unknown> },
  headers: Record<string, string> = {},
): void {
  const { code, message, field, details } = error;
  sendJson(res, statusOf(code), { error: { code, message, ...(field ? { field } : {}), ...details } }, headers);
}

// Retry-After for an error that says when to come back (extensions.retryAfterSeconds: rate limits, an
// unreachable database).
export function retryAfterHeader(error: { extensions?: Record<string, unknown> }): Record<string, string> {
  const seconds = error.extensions?.retryAfterSeconds;
  return typeof seconds === 'number' ? { 'retry-after': String(seconds) } : {};
}

export function sendAppError(res: ServerResponse, error: AppError, headers: Record<string, string> = {}): void {
  // Extra facts of the error (every field at fault, when several are) stay beside code and message.
  const { code: _code, field: _field, ...details } = error.extensions ?? {};
  sendError(res, { code: error.code, message: error.message, field: error.field, details }, { ...retryAfterHeader(error), ...headers });
}
