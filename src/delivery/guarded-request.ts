// One outbound HTTP exchange with an agent's server, dialled safely: webhook deliveries (http-client.ts),
// health probes (probe.ts), agent cards, A2A calls and the files A2A agents name (guardedDownload) all go
// through here.
//
// Agents register arbitrary URLs, so without a guard the service could be made to call into its own
// network (ip-policy.ts). The address check runs inside the socket's own DNS lookup and the socket connects
// to exactly the addresses that passed, so a name cannot resolve to a public address for the check and a
// private one for the connection (DNS rebinding). Redirects are never followed: a 3xx is just an answer.
// The answer's body is read up to a limit and thrown away, and the whole exchange has a deadline.
import { request as httpRequest, type ClientRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { LookupAddress } from 'node:dns';
import { forbiddenAddressReason, isLocalhostName, normalizeHost, notPublicMessage } from './ip-policy.js';
import { checkUrlShape, resolveWithSystemDns, type ResolveHost } from './url-guard.js';

export type GuardedResult =
  // `body` with keepBody: what was read, complete when the answer ended within the size and time limits.
  // `bodyStart` with keepBodyBytes: the first bytes of the answer (a test ping shows them).
  | { kind: 'response'; status: number; headers: IncomingHttpHeaders; latencyMs: number; body?: KeptBody; bodyStart?: Buffer }
  | { kind: 'error'; error: string; latencyMs: number };

// The exchange's deadline, for all of it (lookup, connect, request and response): its own timeoutMs, or
// a signal that aborts when a deadline shared by several exchanges passes (a card import's), or both.
export type GuardedRequestOptions = GuardedRequestBase & ({ timeoutMs: number; signal?: AbortSignal } | { timeoutMs?: undefined; signal: AbortSignal });

interface GuardedRequestBase {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Response bytes read (and thrown away unless keepBody) before the connection is cut. */
  maxResponseBytes: number;
  /** Keep the answer's body (agent cards, A2A replies) instead of throwing it away. */
  keepBody?: boolean;
  /** The first bytes of the answer's body to keep and return; none by default. */
  keepBodyBytes?: number;
  /** Development and tests only: skip the address policy. */
  allowPrivate: boolean;
  /** Name resolution; defaults to the system resolver. Tests inject answers here. */
  resolve?: ResolveHost;
}

// The request, dialled through the guarded lookup, or why it may not be sent. Not yet ended.
function openGuarded(opts: Pick<GuardedRequestBase, 'method' | 'url' | 'headers' | 'body' | 'allowPrivate' | 'resolve'>): { request: ClientRequest } | { error: string } {
  const shape = checkUrlShape(opts.url);
  if (!shape.ok) return { error: shape.reason };
  const host = normalizeHost(shape.url.hostname);
  if (host === null) return { error: 'URL host is not valid' };

  if (!opts.allowPrivate) {
    // IP literals never go through lookup, so they are judged here.
    if (host.kind === 'ip') {
      const reason = forbiddenAddressReason(host.address);
      if (reason) return { error: `forbidden address ${host.address}: ${reason}` };
    } else if (isLocalhostName(host.name)) {
      return { error: `forbidden host ${host.name}: local name` };
    }
  }

  const sendRequest = shape.url.protocol === 'https:' ? httpsRequest : httpRequest;
  try {
    const request = sendRequest({
      method: opts.method,
      protocol: shape.url.protocol,
      hostname: host.kind === 'ip' ? host.address : host.name,
      port: shape.url.port === '' ? undefined : Number(shape.url.port),
      path: `${shape.url.pathname}${shape.url.search}`,
      headers: opts.body ? withContentLength(opts.headers, opts.body.length) : opts.headers,
      // A fresh socket per exchange: a pooled one would skip the guarded lookup.
      agent: false,
      lookup: guardedLookup(opts.resolve ?? resolveWithSystemDns, opts.allowPrivate),
    });
    return { request };
  } catch (error) {
    // Invalid header values and the like are thrown synchronously.
    return { error: describeError(error) };
  }
}

export async function guardedRequest(opts: GuardedRequestOptions): Promise<GuardedResult> {
  const startedAt = performance.now();
  const elapsedMs = (): number => Math.round(performance.now() - startedAt);
  const refuse = (error: string): GuardedResult => ({ kind: 'error', error, latencyMs: elapsedMs() });

  if (opts.signal?.aborted) return refuse('timeout');
  const opened = openGuarded(opts);
  if ('error' in opened) return refuse(opened.error);
  const { request } = opened;

  // The request only starts connecting on a later tick, so the listeners below are in place before
  // anything can happen.
  return new Promise<GuardedResult>((settle) => {
    let settled = false;
    const finish = (outcome: Outcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      opts.signal?.removeEventListener('abort', timedOut);
      request.destroy();
      // The body as it stands now: events already queued on the response must not change what the
      // caller reads later.
      settle({ ...outcome, ...('body' in outcome && outcome.body ? { body: { ...outcome.body } } : {}), latencyMs: elapsedMs() });
    };
    // Set once the status line arrives: from then on the server has answered.
    let answer: Answer | null = null;

    // A body that trickles past the deadline does not turn an answer already given into a timeout.
    const timedOut = () => finish(answer ?? { kind: 'error', error: 'timeout' });
    const deadline = opts.timeoutMs === undefined ? undefined : setTimeout(timedOut, opts.timeoutMs);
    opts.signal?.addEventListener('abort', timedOut, { once: true });

    request.on('response', (response) => {
      const answered: Answer = { kind: 'response', status: response.statusCode ?? 0, headers: response.headers };
      const chunks: Buffer[] = [];
      if (opts.keepBody) answered.body = { bytes: Buffer.alloc(0), complete: false, overLimit: false };
      answer = answered;
      let bytesRead = 0;
      const keep = opts.keepBodyBytes ?? 0;
      if (keep > 0) answered.bodyStart = Buffer.alloc(0);
      response.on('data', (chunk: Buffer) => {
        if (answered.bodyStart && answered.bodyStart.length < keep) {
          answered.bodyStart = Buffer.concat([answered.bodyStart, chunk.subarray(0, keep - answered.bodyStart.length)]);
        }
        bytesRead += chunk.length;
        if (bytesRead > opts.maxResponseBytes) {
          if (answered.body) answered.body.overLimit = true;
          return finish(answered);
        }
        if (answered.body) {
          chunks.push(chunk);
          answered.body.bytes = Buffer.concat(chunks);
        }
      });
      response.on('end', () => {
        // The end of a body already cut at the size limit (its last chunks and the end can come in one
        // tick, before the caller reads the answer) does not make the part that was kept complete.
        if (answered.body && !answered.body.overLimit) answered.body.complete = true;
        finish(answered);
      });
      // Cut short after the head arrived: the status still stands.
      response.on('error', () => finish(answered));
      response.on('close', () => finish(answered));
    });
    request.on('error', (error) => finish(answer ?? { kind: 'error', error: describeError(error) }));
    request.end(opts.body);
  });
}

export type GuardedDownload =
  | { kind: 'response'; status: number; headers: IncomingHttpHeaders; body: IncomingMessage }
  | { kind: 'error'; error: string };

// A GET whose answer's body is streamed to the caller instead of kept (files an A2A agent names by url),
// dialled under the same address policy, without redirects. The deadline covers the whole exchange,
// body included: past it the body fails with "timeout". The caller bounds the size as it reads.
export function guardedDownload(opts: { url: string; timeoutMs: number; allowPrivate: boolean; resolve?: ResolveHost }): Promise<GuardedDownload> {
  const opened = openGuarded({ method: 'GET', url: opts.url, headers: { accept: '*/*' }, allowPrivate: opts.allowPrivate, resolve: opts.resolve });
  if ('error' in opened) return Promise.resolve({ kind: 'error', error: opened.error });
  const { request } = opened;
  return new Promise<GuardedDownload>((settle) => {
    let response: IncomingMessage | null = null;
    const deadline = setTimeout(() => {
      const timeout = new Error('timeout');
      if (response) response.destroy(timeout);
      request.destroy(timeout);
    }, opts.timeoutMs);
    request.on('response', (answer) => {
      response = answer;
      answer.once('close', () => clearTimeout(deadline));
      settle({ kind: 'response', status: answer.statusCode ?? 0, headers: answer.headers, body: answer });
    });
    request.on('error', (error) => {
      if (response) return;
      clearTimeout(deadline);
      settle({ kind: 'error', error: describeError(error) });
    });
    request.end();
  });
}

export interface KeptBody {
  bytes: Buffer;
  complete: boolean;
  overLimit: boolean;
}
type Answer = { kind: 'response'; status: number; headers: IncomingHttpHeaders; body?: KeptBody; bodyStart?: Buffer };
type Outcome = Answer | { kind: 'error'; error: string };

/**
 * The guarded lookup for a socket: resolve, refuse if any address is forbidden (the connection may pick
 * any of them), and hand over only the addresses that were checked.
 */
export function guardedLookup(resolve: ResolveHost, allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        // The refusal names the host, not what it resolved to (the resolver's answers stay inside).
        if (!allowPrivate && addresses.some((address) => forbiddenAddressReason(address) !== null)) {
          return callback(lookupError('EFORBIDDEN', notPublicMessage(hostname)), '');
        }
        const wantedFamily = familyNumber(options.family);
        const usable: LookupAddress[] = addresses
          .map((address) => ({ address, family: isIP(address) }))
          .filter((entry) => entry.family !== 0 && (wantedFamily === 0 || entry.family === wantedFamily));
        const first = usable[0];
        if (first === undefined) return callback(lookupError('ENOTFOUND', `host ${hostname} does not resolve`), '');
        if (options.all) return callback(null, usable);
        callback(null, first.address, first.family);
      },
      (error: unknown) => callback(lookupError('ENOTFOUND', `host ${hostname} does not resolve: ${describeError(error)}`), ''),
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

// Node reports a failed multi-address connect as an AggregateError with an empty message; the inner
// errors carry the useful text.
function describeError(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return error.errors.map(describeError).join('; ');
  if (error instanceof Error) return error.message || (error as NodeJS.ErrnoException).code || error.name;
  return String(error);
}

function withContentLength(headers: Record<string, string>, length: number): Record<string, string> {
  const framingHeaders = new Set(['content-length', 'transfer-encoding']);
  const kept = Object.entries(headers).filter(([name]) => !framingHeaders.has(name.toLowerCase()));
  return { ...Object.fromEntries(kept), 'Content-Length': String(length) };
}
