// One webhook POST, through the guarded request (guarded-request.ts): the host's addresses are checked
// before a socket is dialled to them (a kept-alive one is reused only within the same checked addresses),
// redirects are never followed, the answer's body is read up to a limit.
import { guardedRequest } from './guarded-request.js';
import type { ResolveHost } from './url-guard.js';

export type WebhookResult =
  | { kind: 'response'; status: number; retryAfterMs: number | null; latencyMs: number }
  | { kind: 'error'; error: string; latencyMs: number };

export type PostWebhookOptions = {
  url: string;
  body: Buffer;
  headers: Record<string, string>;
  /** Deadline for the whole exchange: lookup, connect, request and response. */
  timeoutMs: number;
  /** Development and tests only: skip the address policy. */
  allowPrivate: boolean;
  /** Name resolution; defaults to the system resolver. Tests inject answers here. */
  resolve?: ResolveHost;
};

/** Response bytes read (and thrown away) before the connection is cut. */
export const MAX_RESPONSE_BODY_BYTES = 64 * 1024;

export async function postWebhook(opts: PostWebhookOptions): Promise<WebhookResult> {
  const result = await guardedRequest({ ...opts, method: 'POST', maxResponseBytes: MAX_RESPONSE_BODY_BYTES });
  if (result.kind === 'error') return result;
  const retryAfter = result.headers['retry-after'];
  return { kind: 'response', status: result.status, retryAfterMs: parseRetryAfterMs(retryAfter), latencyMs: result.latencyMs };
}

/**
 * Retry-After as milliseconds from now: either delta-seconds or an HTTP date
 * (a date in the past means "now", 0). Null when absent or unreadable.
 */
export function parseRetryAfterMs(value: string | undefined, nowMs: number = Date.now()): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Date.parse reads bare numbers like "1" as years; a real HTTP date has a
  // weekday or month name, so insist on letters.
  if (!/[a-z]/i.test(text)) return null;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - nowMs);
}
