// One webhook POST, dialled safely.
//
// The address check runs inside the socket's own DNS lookup and the socket
// connects to exactly the addresses that passed, so a name cannot resolve to
// a public address for the check and a private one for the connection
// (DNS rebinding). Redirects are never followed: a 3xx is just an answer.

import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { LookupAddress } from 'node:dns';
import { forbiddenAddressReason, isLocalhostName, normalizeHost } from './ip-policy.js';
import { checkUrlShape, resolveWithSystemDns, type ResolveHost } from './url-guard.js';

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
  const startedAt = performance.now();
  const elapsedMs = (): number => Math.round(performance.now() - startedAt);
  const refuse = (error: string): WebhookResult => ({ kind: 'error', error, latencyMs: elapsedMs() });

  const shape = checkUrlShape(opts.url);
  if (!shape.ok) return refuse(shape.reason);
  const host = normalizeHost(shape.url.hostname);
  if (host === null) return refuse('URL host is not valid');

  if (!opts.allowPrivate) {
    // IP literals never go through lookup, so they are judged here.
    if (host.kind === 'ip') {
      const reason = forbiddenAddressReason(host.address);
      if (reason) return refuse(`forbidden address ${host.address}: ${reason}`);
    } else if (isLocalhostName(host.name)) {
      return refuse(`forbidden host ${host.name}: local name`);
    }
  }

  const sendRequest = shape.url.protocol === 'https:' ? httpsRequest : httpRequest;
  let request: ClientRequest;
  try {
    request = sendRequest({
      method: 'POST',
      protocol: shape.url.protocol,
      hostname: host.kind === 'ip' ? host.address : host.name,
      port: shape.url.port === '' ? undefined : Number(shape.url.port),
      path: `${shape.url.pathname}${shape.url.search}`,
      headers: withContentLength(opts.headers, opts.body.length),
      // A fresh socket per delivery: a pooled one would skip our lookup.
      agent: false,
      lookup: checkedLookup(opts.resolve ?? resolveWithSystemDns, opts.allowPrivate),
    });
  } catch (error) {
    // Invalid header values and the like are thrown synchronously.
    return refuse(describeError(error));
  }

  // The request only starts connecting on a later tick, so the listeners
  // below are in place before anything can happen.
  return new Promise<WebhookResult>((settle) => {
    let settled = false;
    const finish = (outcome: Outcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      settle({ ...outcome, latencyMs: elapsedMs() });
    };
    // Set once the status line arrives: from then on the agent has answered.
    let answer: ResponseOutcome | null = null;

    const deadline = setTimeout(() => {
      request.destroy();
      // A body that trickles past the deadline does not turn an answer the
      // agent already gave into a timeout.
      finish(answer ?? { kind: 'error', error: 'timeout' });
    }, opts.timeoutMs);

    request.on('response', (response: IncomingMessage) => {
      const answered: ResponseOutcome = {
        kind: 'response',
        status: response.statusCode ?? 0,
        retryAfterMs: parseRetryAfterMs(response.headers['retry-after']),
      };
      answer = answered;
      let bytesRead = 0;
      response.on('data', (chunk: Buffer) => {
        bytesRead += chunk.length;
        if (bytesRead > MAX_RESPONSE_BODY_BYTES) {
          finish(answered);
          request.destroy();
        }
      });
      response.on('end', () => finish(answered));
      // Cut short after the head arrived: the status still stands.
      response.on('error', () => finish(answered));
      response.on('close', () => finish(answered));
    });
    request.on('error', (error) => finish(answer ?? { kind: 'error', error: describeError(error) }));
    request.end(opts.body);
  });
}

type ResponseOutcome = { kind: 'response'; status: number; retryAfterMs: number | null };
type Outcome = ResponseOutcome | { kind: 'error'; error: string };

/**
 * Lookup for the socket: resolve, refuse if any address is forbidden, and
 * hand over only the addresses that were checked.
 */
function checkedLookup(resolve: ResolveHost, allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        if (!allowPrivate) {
          for (const address of addresses) {
            const reason = forbiddenAddressReason(address);
            if (reason) {
              callback(lookupError('EFORBIDDEN', `forbidden address ${address} for ${hostname}: ${reason}`), '');
              return;
            }
          }
        }
        const wantedFamily = familyNumber(options.family);
        const usable: LookupAddress[] = addresses
          .map((address) => ({ address, family: isIP(address) }))
          .filter((entry) => entry.family !== 0 && (wantedFamily === 0 || entry.family === wantedFamily));
        const first = usable[0];
        if (first === undefined) {
          callback(lookupError('ENOTFOUND', `host ${hostname} does not resolve`), '');
        } else if (options.all) {
          callback(null, usable);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (error: unknown) => {
        callback(lookupError('ENOTFOUND', `host ${hostname} does not resolve: ${describeError(error)}`), '');
      },
    );
  };
}

function familyNumber(family: number | string | undefined): number {
  if (family === 4 || family === 'IPv4') return 4;
  if (family === 6 || family === 'IPv6') return 6;
  return 0;
}

function lookupError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

// Node reports a failed multi-address connect as an AggregateError with an
// empty message; the inner errors carry the useful text.
function describeError(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) {
    return error.errors.map(describeError).join('; ');
  }
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return error.message || code || error.name;
  }
  return String(error);
}

function withContentLength(headers: Record<string, string>, length: number): Record<string, string> {
  const framingHeaders = new Set(['content-length', 'transfer-encoding']);
  const kept = Object.entries(headers).filter(([name]) => !framingHeaders.has(name.toLowerCase()));
  return { ...Object.fromEntries(kept), 'Content-Length': String(length) };
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
