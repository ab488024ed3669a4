// One outbound HTTP exchange with an agent's server, dialled safely: webhook deliveries (http-client.ts),
// health probes (probe.ts), agent cards, A2A calls and the files A2A agents name (guardedDownload) all go
// through here.
//
// Agents register arbitrary URLs, so without a guard the service could be made to call into its own
// network (ip-policy.ts). The host's addresses are resolved and checked before the exchange, and the socket
// connects to exactly the addresses that passed (its lookup hands over those only), so a name cannot
// resolve to a public address for the check and a private one for the connection (DNS rebinding). The answer
// may be one the service's resolver kept (dns-cache.ts, deps.resolveHost): it is checked here all the same. Sockets
// are kept alive in pools of one set of checked addresses each (checked-sockets.ts), so a socket reused
// was opened to an address of the set this exchange checked. Redirects are never followed: a 3xx is just an answer.
// The answer's body is read up to a limit and thrown away, and the whole exchange has a deadline.
import { request as httpRequest, type ClientRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { LookupAddress } from 'node:dns';
import { forbiddenAddressReason, isLocalhostName, normalizeHost, notPublicMessage, type NormalizedHost } from './ip-policy.js';
import { checkUrlShape, resolveWithSystemDns, type ResolveHost } from './url-guard.js';
import { checkedLookup, checkedPool } from './checked-sockets.js';

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
  /** Name resolution: the services pass deps.resolveHost (cached); else the system resolver, uncached. Tests inject answers here. */
  resolve?: ResolveHost;
}

type RequestShape = Pick<GuardedRequestBase, 'method' | 'url' | 'headers' | 'body' | 'allowPrivate' | 'resolve'>;

// What the URL alone decides (its shape, its host, and for an IP literal the address policy's verdict):
// the same for every exchange with the same URL, so kept per URL text instead of parsed on every
// delivery. Bounded; the oldest entry goes first. A host name's addresses are not kept here: they are
// resolved and checked on every exchange (checkedAddresses).
type Target =
  | { error: string }
  | { protocol: 'http:' | 'https:'; host: NormalizedHost; port: number | undefined; path: string };
const MAX_TARGETS = 1_000;
const targets = new Map<string, Target>();

function targetOf(url: string, allowPrivate: boolean): Target {
  const key = allowPrivate ? `+${url}` : url;
  let target = targets.get(key);
  if (target === undefined) {
    target = judgeTarget(url, allowPrivate);
    if (targets.size >= MAX_TARGETS) targets.delete(targets.keys().next().value!);
    targets.set(key, target);
  }
  return target;
}

function judgeTarget(url: string, allowPrivate: boolean): Target {
  const shape = checkUrlShape(url);
  if (!shape.ok) return { error: shape.reason };
  const host = normalizeHost(shape.url.hostname);
  if (host === null) return { error: 'URL host is not valid' };
  if (!allowPrivate) {
    // IP literals are not resolved, so they are judged here.
    if (host.kind === 'ip') {
      const reason = forbiddenAddressReason(host.address);
      if (reason) return { error: `forbidden address ${host.address}: ${reason}` };
    } else if (isLocalhostName(host.name)) {
      return { error: `forbidden host ${host.name}: local name` };
    }
  }
  return {
    protocol: shape.url.protocol === 'https:' ? 'https:' : 'http:',
    host,
    port: shape.url.port === '' ? undefined : Number(shape.url.port),
    path: `${shape.url.pathname}${shape.url.search}`,
  };
}

type Opened = { request: ClientRequest } | { error: string };

// The request, dialled to the host's checked addresses through their pool, or why it may not be sent.
// Not yet ended. At once for an IP literal; a host name waits for its addresses.
function openGuarded(opts: RequestShape): Opened | Promise<Opened> {
  const target = targetOf(opts.url, opts.allowPrivate);
  if ('error' in target) return target;
  const { host } = target;
  if (host.kind === 'ip') return dial(opts, target, [{ address: host.address, family: isIP(host.address) }]);
  return checkedAddresses(opts.resolve ?? resolveWithSystemDns, host.name, opts.allowPrivate).then((checked) =>
    'error' in checked ? checked : dial(opts, target, checked.addresses),
  );
}

function dial(opts: RequestShape, target: Exclude<Target, { error: string }>, addresses: LookupAddress[]): Opened {
  const { protocol, host } = target;
  const sendRequest = protocol === 'https:' ? httpsRequest : httpRequest;
  try {
    const request = sendRequest({
      method: opts.method,
      protocol,
      hostname: host.kind === 'ip' ? host.address : host.name,
      port: target.port,
      path: target.path,
      headers: opts.body ? withContentLength(opts.headers, opts.body.length) : opts.headers,
      agent: checkedPool(protocol, addresses),
      lookup: checkedLookup(addresses),
    });
    return { request };
  } catch (error) {
    // Invalid header values and the like are thrown synchronously.
    return { error: describeError(error) };
  }
}

// `work`, or 'timeout' when the exchange's deadline (its time left, its signal) comes first.
// Work already done (an IP literal's request) is taken as it is.
async function beforeDeadline<T extends object>(work: T | Promise<T>, timeoutMs: number | undefined, signal: AbortSignal | undefined): Promise<T | 'timeout'> {
  if (!(work instanceof Promise)) return work;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    if (timeoutMs !== undefined) timer = setTimeout(() => resolve('timeout'), timeoutMs);
    onAbort = () => resolve('timeout');
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort!);
  }
}

export async function guardedRequest(opts: GuardedRequestOptions): Promise<GuardedResult> {
  const startedAt = performance.now();
  const elapsedMs = (): number => Math.round(performance.now() - startedAt);
  const refuse = (error: string): GuardedResult => ({ kind: 'error', error, latencyMs: elapsedMs() });

  if (opts.signal?.aborted) return refuse('timeout');
  const opened = await beforeDeadline(openGuarded(opts), opts.timeoutMs, opts.signal);
  if (opened === 'timeout') return refuse('timeout');
  if ('error' in opened) return refuse(opened.error);
  const { request } = opened;
  const timeLeftMs = opts.timeoutMs === undefined ? undefined : Math.max(0, opts.timeoutMs - elapsedMs());

  // The request only starts connecting on a later tick, so the listeners below are in place before
  // anything can happen.
  return new Promise<GuardedResult>((settle) => {
    let settled = false;
    // `ended`: the answer was read to its end, so its socket goes back to its pool; otherwise it is cut.
    const finish = (outcome: Outcome, ended = false): void => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      opts.signal?.removeEventListener('abort', timedOut);
      if (!ended) request.destroy();
      // The body as it stands now: events already queued on the response must not change what the
      // caller reads later.
      settle({ ...outcome, ...('body' in outcome && outcome.body ? { body: { ...outcome.body } } : {}), latencyMs: elapsedMs() });
    };
    // Set once the status line arrives: from then on the server has answered.
    let answer: Answer | null = null;

    // A body that trickles past the deadline does not turn an answer already given into a timeout.
    const timedOut = () => finish(answer ?? { kind: 'error', error: 'timeout' });
    const deadline = timeLeftMs === undefined ? undefined : setTimeout(timedOut, timeLeftMs);
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
        finish(answered, !answered.body?.overLimit);
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
export async function guardedDownload(opts: { url: string; timeoutMs: number; allowPrivate: boolean; resolve?: ResolveHost }): Promise<GuardedDownload> {
  const startedAt = performance.now();
  const shape: RequestShape = { method: 'GET', url: opts.url, headers: { accept: '*/*' }, allowPrivate: opts.allowPrivate, resolve: opts.resolve };
  const opened = await beforeDeadline(openGuarded(shape), opts.timeoutMs, undefined);
  if (opened === 'timeout') return { kind: 'error', error: 'timeout' };
  if ('error' in opened) return { kind: 'error', error: opened.error };
  const { request } = opened;
  const timeLeftMs = Math.max(0, opts.timeoutMs - (performance.now() - startedAt));
  return new Promise<GuardedDownload>((settle) => {
    let response: IncomingMessage | null = null;
    const deadline = setTimeout(() => {
      const timeout = new Error('timeout');
      if (response) response.destroy(timeout);
      request.destroy(timeout);
    }, timeLeftMs);
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
 * The host's addresses, resolved and checked: refused if any address is forbidden (the connection may pick
 * any of them), else those a socket may be dialled to.
 */
async function checkedAddresses(resolve: ResolveHost, hostname: string, allowPrivate: boolean): Promise<{ addresses: LookupAddress[] } | { error: string }> {
  let addresses: string[];
  try {
    addresses = await resolve(hostname);
  } catch (error) {
    return { error: `host ${hostname} does not resolve: ${describeError(error)}` };
  }
  // The refusal names the host, not what it resolved to (the resolver's answers stay inside).
  if (!allowPrivate && addresses.some((address) => forbiddenAddressReason(address) !== null)) return { error: notPublicMessage(hostname) };
  const usable: LookupAddress[] = addresses.map((address) => ({ address, family: isIP(address) })).filter((entry) => entry.family !== 0);
  if (usable.length === 0) return { error: `host ${hostname} does not resolve` };
  return { addresses: usable };
}

// Node reports a failed multi-address connect as an AggregateError with an empty message; the inner
// errors carry the useful text.
function describeError(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return error.errors.map(describeError).join('; ');
  if (error instanceof Error) return error.message || (error as NodeJS.ErrnoException).code || error.name;
  return String(error);
}

const FRAMING = /^(content-length|transfer-encoding)$/i;

// The callers' headers without any framing of their own, and the body's length: one copy.
function withContentLength(headers: Record<string, string>, length: number): Record<string, string> {
  const framed: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (!FRAMING.test(name)) framed[name] = value;
  framed['Content-Length'] = String(length);
  return framed;
}
