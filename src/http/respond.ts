// Every answer the HTTP layer writes as JSON, and the one error encoder: an error is answered with the
// status of its code (statusOf in errors.ts) in the format of the route it came from.
import type { ServerResponse } from 'node:http';
import { AppError, statusOf, type ErrorCode } from '../errors.js';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export interface HttpError {
  code: ErrorCode | string;
  message: string;
  field?: string;
  // Facts beside code and message (every field at fault, a task's current status).
  details?: Record<string, unknown>;
  // OAuth's own code for it (RFC 6749 section 5.2), when the 'oauth' format answers it.
  oauthError?: string;
}

// 'api': the spec's envelope { error: { code, message, field? } }. 'oauth': RFC 6749's
// { error, error_description }, which OAuth clients parse (the endpoints of http/oauth-routes.ts).
export type ErrorFormat = 'api' | 'oauth';

// OAuth's code for an error that carries none of its own.
function oauthCodeOf(code: string): string {
  if (code === 'UNAUTHENTICATED') return 'invalid_client';
  if (code === 'UNAVAILABLE' || code === 'RATE_LIMITED') return 'temporarily_unavailable';
  return statusOf(code) >= 500 ? 'server_error' : 'invalid_request';
}

// The status and body of an error; the one place either is decided.
export function encodeError(error: HttpError, format: ErrorFormat = 'api'): { status: number; body: unknown } {
  const { code, message, field, details } = error;
  const status = statusOf(code);
  if (format === 'oauth') return { status, body: { error: error.oauthError ?? oauthCodeOf(code), error_description: message } };
  return { status, body: { error: { code, message, ...(field ? { field } : {}), ...details } } };
}

export function sendError(res: ServerResponse, error: HttpError, headers: Record<string, string> = {}, format: ErrorFormat = 'api'): void {
  const { status, body } = encodeError(error, format);
  sendJson(res, status, body, headers);
}

// Retry-After for an error that says when to come back (extensions.retryAfterSeconds: rate limits, an
// unreachable database).
export function retryAfterHeader(error: { extensions?: Record<string, unknown> }): Record<string, string> {
  const seconds = error.extensions?.retryAfterSeconds;
  return typeof seconds === 'number' ? { 'retry-after': String(seconds) } : {};
}

// An AppError as the encoder takes it: extra facts of the error (every field at fault, when several are)
// stay beside code and message.
export function httpErrorOf(error: AppError): HttpError {
  const { code: _code, field: _field, ...details } = error.extensions ?? {};
  return { code: error.code, message: error.message, field: error.field, details };
}

export function sendAppError(res: ServerResponse, error: AppError, headers: Record<string, string> = {}, format: ErrorFormat = 'api'): void {
  sendError(res, httpErrorOf(error), { ...retryAfterHeader(error), ...headers }, format);
}
