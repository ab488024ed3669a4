// One health probe: a GET of an agent's manifest or endpoint through the guarded request
// (guarded-request.ts), under the same address policy as deliveries; redirects are not followed and the
// body is not read beyond a little.
import { guardedRequest } from './guarded-request.js';
import type { ResolveHost } from './url-guard.js';

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

export async function probeUrl(opts: ProbeOptions): Promise<ProbeResult> {
  const result = await guardedRequest({
    ...opts,
    method: 'GET',
    headers: { 'user-agent': opts.userAgent ?? 'Service/1.0', accept: 'application/json, */*' },
    maxResponseBytes: MAX_BODY_BYTES,
  });
  if (result.kind === 'error') return result;
  return { kind: 'response', status: result.status, latencyMs: result.latencyMs };
}
