// One health probe: a GET of an agent's manifest or endpoint, dialled under the same address policy as
// deliveries (http-client.ts). The address check runs inside the socket's own lookup, so the address
// checked is the address dialled; redirects are not followed and the body is not read beyond a little.
import { request as httpRequest, type ClientRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { forbiddenAddressReason, isLocalhostName, normalizeHost } from './ip-policy.js';
import { checkUrlShape, resolveWithSystemDns, type ResolveHost } from './url-guard.js';

export type ProbeResult = { kind: 'response'; status: number; latencyMs: number } | { kind: 'error'; error: string; latencyMs: number };

export interface ProbeOptions {
  url: string;
  timeoutMs: number;
  // Development and tests only: skip the address policy.
  allowPrivate: boolean;
  resolve?: ResolveHost;
  userAgent?: string;
}

const MAX_BODY_BYTES = 16 * 1024;

function guardedLookup(resolve: ResolveHost, allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const reason = allowPrivate ? null : addresses.map((a) => forbiddenAddressReason(a) && `${a}: ${forbiddenAddressReason(a)}`).find(Boolean);
        if (reason) return callback(Object.assign(new Error(`forbidden address ${reason}`), { code: 'EFORBIDDEN' }), '');
        const family = options.family === 6 || options.family === 'IPv6' ? 6 : options.family === 4 || options.family === 'IPv4' ? 4 : 0;
        const usable = addresses.map((address) => ({ address, family: isIP(address) })).filter((a) => a.family !== 0 && (family === 0 || a.family === family));
        if (usable.length === 0) return callback(Object.assign(new Error(`host ${hostname} does not resolve`), { code: 'ENOTFOUND' }), '');
        if (options.all) return callback(null, usable);
        callback(null, usable[0]!.address, usable[0]!.family);
      },
      (error: unknown) => callback(Object.assign(new Error(`host ${hostname} does not resolve: ${String(error)}`), { code: 'ENOTFOUND' }), ''),
    );
  };
}

export async function probeUrl(opts: ProbeOptions): Promise<ProbeResult> {
  const startedAt = performance.now();
  const elapsed = () => Math.round(performance.now() - startedAt);
  const refuse = (error: string): ProbeResult => ({ kind: 'error', error, latencyMs: elapsed() });

  const shape = checkUrlShape(opts.url);
  if (!shape.ok) return refuse(shape.reason);
  const host = normalizeHost(shape.url.hostname);
  if (host === null) return refuse('URL host is not valid');
  if (!opts.allowPrivate) {
    // IP literals never go through the lookup, so they are judged here.
    if (host.kind === 'ip' && forbiddenAddressReason(host.address)) return refuse(`forbidden address ${host.address}`);
    if (host.kind !== 'ip' && isLocalhostName(host.name)) return refuse(`forbidden host ${host.name}`);
  }

  let request: ClientRequest;
  try {
    request = (shape.url.protocol === 'https:' ? httpsRequest : httpRequest)({
      method: 'GET',
      protocol: shape.url.protocol,
      hostname: host.kind === 'ip' ? host.address : host.name,
      port: shape.url.port === '' ? undefined : Number(shape.url.port),
      path: `${shape.url.pathname}${shape.url.search}`,
      headers: { 'user-agent': opts.userAgent ?? 'Service/1.0', accept: 'application/json, */*' },
      // A fresh socket: a pooled one would skip the guarded lookup.
      agent: false,
      lookup: guardedLookup(opts.resolve ?? resolveWithSystemDns, opts.allowPrivate),
    });
  } catch (error) {
    return refuse(error instanceof Error ? error.message : String(error));
  }

  return new Promise<ProbeResult>((settle) => {
    let done = false;
    const finish = (result: ProbeResult) => {
      if (done) return;
      done = true;
      clearTimeout(deadline);
      request.destroy();
      settle(result);
    };
    const deadline = setTimeout(() => finish(refuse('timeout')), opts.timeoutMs);
    request.on('response', (response) => {
      const answered: ProbeResult = { kind: 'response', status: response.statusCode ?? 0, latencyMs: elapsed() };
      let bytes = 0;
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > MAX_BODY_BYTES) finish(answered);
      });
      response.on('end', () => finish(answered));
      response.on('error', () => finish(answered));
      response.on('close', () => finish(answered));
    });
    request.on('error', (error) => finish(refuse(error.message || (error as NodeJS.ErrnoException).code || 'request failed')));
    request.end();
  });
}
