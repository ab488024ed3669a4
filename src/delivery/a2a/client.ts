// An A2A client for one agent, from its stored card and its endpoint, whose every HTTP exchange goes
// through the guarded request (address policy inside the lookup, no redirects, the delivery timeout, a size limit): the
// SDK writes and reads the wire format (v1.0, or v0.3 for cards that declare it), and each exchange is
// reported, so the delivery log records it as an attempt.
import type { Client } from '@a2a-js/sdk/client';
import { lazyImport } from '../../load-package.js';
import { guardedRequest } from '../guarded-request.js';
import type { ResolveHost } from '../url-guard.js';

// The SDK's client (most of its code) is loaded with the first A2A delivery or signed card, not at start.
export const loadA2AClient = lazyImport(() => import('@a2a-js/sdk/client'));

// Answers larger than this are cut and the call fails (an agent's task with its artifacts).
export const MAX_A2A_RESPONSE_BYTES = 1024 * 1024;

export interface Exchange {
  // The HTTP status, or null when there was no answer.
  status: number | null;
  latencyMs: number;
  error: string | null;
  retryAfterMs: number | null;
}

function headersOf(init: RequestInit | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  new Headers(init?.headers).forEach((value, name) => (headers[name] = value));
  return headers;
}

interface DeclaredInterface {
  url?: unknown;
  protocolBinding?: unknown;
  protocolVersion?: unknown;
  tenant?: unknown;
}

// The interface at the agent's endpoint (the URL that was checked and is shown as the agent's), with the
// protocol version and tenant the card declares for it. It is the only interface the SDK is given: a card
// with several JSON-RPC interfaces must not send our calls to one nobody checked or saw.
export function endpointInterface(card: unknown, endpoint: string) {
  const raw = (card ?? {}) as { supportedInterfaces?: unknown; url?: unknown; protocolVersion?: unknown };
  const declared = (Array.isArray(raw.supportedInterfaces) ? (raw.supportedInterfaces as DeclaredInterface[]) : []).find(
    (i) => i?.url === endpoint && String(i.protocolBinding || 'JSONRPC').toUpperCase() === 'JSONRPC',
  );
  const text = (value: unknown, fallback: string) => (typeof value === 'string' && value ? value : fallback);
  if (declared) return { url: endpoint, protocolBinding: 'JSONRPC', protocolVersion: text(declared.protocolVersion, '1.0'), tenant: text(declared.tenant, '') };
  if (raw.url === endpoint) return { url: endpoint, protocolBinding: 'JSONRPC', protocolVersion: text(raw.protocolVersion, '0.3'), tenant: '' };
  return { url: endpoint, protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' };
}

export async function a2aClient(card: unknown, endpoint: string, opts: { timeoutMs: number; allowPrivate: boolean; resolve?: ResolveHost; onExchange(exchange: Exchange): void }): Promise<Client> {
  const fetchImpl: typeof fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url;
    const body = typeof init?.body === 'string' ? Buffer.from(init.body) : undefined;
    const result = await guardedRequest({
      method: (init?.method ?? 'GET') === 'POST' ? 'POST' : 'GET',
      url,
      headers: headersOf(init),
      body,
      timeoutMs: opts.timeoutMs,
      maxResponseBytes: MAX_A2A_RESPONSE_BYTES,
      keepBody: true,
      allowPrivate: opts.allowPrivate,
      resolve: opts.resolve,
    });
    if (result.kind === 'error') {
      opts.onExchange({ status: null, latencyMs: result.latencyMs, error: result.error, retryAfterMs: null });
      throw new Error(result.error);
    }
    const complete = result.body?.complete ?? false;
    const retryAfter = Number(result.headers['retry-after']);
    opts.onExchange({
      status: result.status,
      latencyMs: result.latencyMs,
      error: complete ? null : result.body?.overLimit ? `the answer is larger than ${MAX_A2A_RESPONSE_BYTES} bytes` : 'the answer was cut short',
      retryAfterMs: Number.isFinite(retryAfter) ? retryAfter * 1000 : null,
    });
    if (!complete) throw new Error('incomplete answer');
    const headers = new Headers();
    for (const [name, value] of Object.entries(result.headers)) if (typeof value === 'string') headers.set(name, value);
    return new Response(result.status === 204 ? null : new Uint8Array(result.body!.bytes), { status: result.status, headers });
  };
  const { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } = await loadA2AClient();
  const legacyCompat = { enabled: true };
  const agentCard = { ...new DefaultAgentCardResolver({ legacyCompat }).normalizeAgentCard(card), supportedInterfaces: [endpointInterface(card, endpoint)] };
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl, legacyCompat })],
      preferredTransports: ['JSONRPC'],
    }),
  );
  return factory.createFromAgentCard(agentCard);
}
