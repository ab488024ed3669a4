// Limits on the request line and headers, answered as coded JSON errors like every other refusal.
// Node's own answer to oversized headers (and to malformed HTTP) is a bare status line with no body.
import type { Duplex } from 'node:stream';
import { AppError } from '../errors.js';
import { encodeError } from './respond.js';

// Node refuses larger headers (request line included) before any handler runs; see answerClientError.
export const MAX_HEADER_BYTES = 32 * 1024;
// Longer URLs get 414 from the handler; no route needs more than a few hundred characters.
export const MAX_URL_LENGTH = 8 * 1024;

/** The parsed request URL, or a coded refusal when it is too long or not a URL. */
export function requestUrl(raw: string | undefined): URL {
  const text = raw ?? '/';
  if (text.length > MAX_URL_LENGTH) throw new AppError('URI_TOO_LONG', `the URL is longer than ${MAX_URL_LENGTH} characters`);
  try {
    return new URL(text, 'http://service.internal');
  } catch {
    throw new AppError('INVALID_INPUT', 'the request URL is malformed', { field: 'url' });
  }
}

const REASONS: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/** The server's 'clientError' listener: HTTP that could not be parsed gets a JSON error, then the socket closes. */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [code, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? (['HEADERS_TOO_LARGE', `the request line and headers are larger than ${MAX_HEADER_BYTES} bytes`] as const)
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? (['REQUEST_TIMEOUT', 'the request took too long to arrive'] as const)
        : (['INVALID_INPUT', 'the request is not valid HTTP'] as const);
  const encoded = encodeError({ code, message, ...(code === 'INVALID_INPUT' ? { field: 'request' } : {}) });
  const status = encoded.status;
  const body = JSON.stringify(encoded.body);
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
