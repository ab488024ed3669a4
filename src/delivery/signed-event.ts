// A signed event that is not a task delivery: a test ping, the conformance check's three requests and
// the operational notifications (endpoint.failing, …). The body follows the Standard Webhooks payload
// shape ({ type, timestamp, data }); it is signed like deliveries, with every secret given (the current
// one first; a rotated-out one in its grace period after it), through the guarded request.
import { randomBytes } from 'node:crypto';
import { guardedRequest } from './guarded-request.js';
import { DELIVERY_USER_AGENT } from './payload.js';
import { signServiceSignature, standardWebhookHeaders } from './signing.js';
import type { ResolveHost } from './url-guard.js';

export interface SignedEvent {
  type: string;
  data: Record<string, unknown>;
}

export type SignedEventResult =
  | { kind: 'response'; status: number; latencyMs: number; bodyStart: string | null; retryAfter: string | null }
  | { kind: 'error'; error: string; latencyMs: number };

export interface SendSignedEventOptions {
  url: string;
  event: SignedEvent;
  // The webhook-id: stable across retries of the same event.
  msgId: string;
  // The time the event is signed at (the service's clock; the check sends a stale one on purpose).
  signedAt: Date;
  secrets: readonly string[];
  timeoutMs: number;
  allowPrivate: boolean;
  resolve?: ResolveHost;
  keepBodyBytes?: number;
}

const MAX_RESPONSE_BYTES = 64 * 1024;

export const newEventId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

export function eventBody(event: SignedEvent, at: Date): Buffer {
  return Buffer.from(JSON.stringify({ type: event.type, timestamp: at.toISOString(), data: event.data }), 'utf8');
}

export async function sendSignedEvent(opts: SendSignedEventOptions): Promise<SignedEventResult> {
  const body = eventBody(opts.event, opts.signedAt);
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': DELIVERY_USER_AGENT,
    'X-Service-Event': opts.event.type,
    'X-Service-Timestamp': opts.signedAt.toISOString(),
  };
  const [current] = opts.secrets;
  if (current !== undefined) {
    headers['X-Service-Signature'] = signServiceSignature(current, body);
    Object.assign(headers, standardWebhookHeaders(opts.secrets, opts.msgId, Math.floor(opts.signedAt.getTime() / 1000), body));
  }
  const result = await guardedRequest({
    method: 'POST',
    url: opts.url,
    headers,
    body,
    timeoutMs: opts.timeoutMs,
    maxResponseBytes: MAX_RESPONSE_BYTES,
    keepBodyBytes: opts.keepBodyBytes,
    allowPrivate: opts.allowPrivate,
    resolve: opts.resolve,
  });
  if (result.kind === 'error') return result;
  const retryAfter = result.headers['retry-after'];
  return {
    kind: 'response',
    status: result.status,
    latencyMs: result.latencyMs,
    bodyStart: result.bodyStart ? result.bodyStart.toString('utf8') : null,
    retryAfter: typeof retryAfter === 'string' ? retryAfter : null,
  };
}
