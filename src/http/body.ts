// Reads a request body with a size limit, so an oversized upload is refused without being buffered.
import type { IncomingMessage } from 'node:http';
import { AppError } from '../errors.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;
const EMPTY = Buffer.alloc(0);

export async function readBody(req: IncomingMessage, limit = BODY_LIMIT_BYTES): Promise<Buffer> {
  // A request with neither header has no body (RFC 9112 6.3): answered without iterating the stream,
  // whose async iterator cost a bodiless GET more than the rest of its reading.
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) return EMPTY;
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function tooLarge(limit: number) {
  return new AppError('PAYLOAD_TOO_LARGE', `the request body is larger than ${limit} bytes`);
}

export function isJsonContentType(header: string | undefined): boolean {
  return !!header && /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(header);
}

// The body as a JSON object; undefined when there is none.
export async function readJsonObject(req: IncomingMessage, limit = BODY_LIMIT_BYTES): Promise<Record<string, unknown> | undefined> {
  const raw = await readBody(req, limit);
  if (raw.length === 0) return undefined;
  if (!isJsonContentType(req.headers['content-type'])) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'send the body as JSON with Content-Type: application/json');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new AppError('INVALID_INPUT', 'the body is not valid JSON', { field: 'body' });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new AppError('INVALID_INPUT', 'the body must be a JSON object', { field: 'body' });
  return parsed as Record<string, unknown>;
}
