// Fetching an A2A agent's card and making an agent of it. The card comes from a URL the owner gives, so
// it is hostile until proven otherwise: fetched through the guarded request (address policy inside the
// lookup, no redirects, the delivery timeout, a size limit), parsed, checked for depth and for strings
// PostgreSQL cannot store, checked against the card's shape with limits on every list and string, its
// URLs judged by the same policy as endpoints, and its signatures, when it has any, verified (JWS over
// the JCS-canonical card, with a key from the signature's jku on the card's own origin, fetched the same
// guarded way). A key the card carries itself (an embedded jwk) proves nothing about who published it,
// so such a signature is not counted. The whole import, the card and every key set, has one deadline
// (the delivery timeout), and each key set URL is fetched at most once. Every refusal is an AppError:
// 400 naming cardUrl for the URL itself, 422 for the card.
import { z } from 'zod';
import { flattenedVerify } from 'jose';
import { AgentCard as AgentCardCodec, canonicalizeAgentCard } from '@a2a-js/sdk';
import { guardedRequest } from '../delivery/guarded-request.js';
import { loadA2AClient } from '../delivery/a2a/client.js';
import { checkEndpointUrl, checkUrlShape, type ResolveHost } from '../delivery/url-guard.js';
import { AppError, invalid } from '../errors.js';
import { unsafeInput } from './unsafe-input.js';
import type { Deadlines } from '../deps.js';
import { agentInput, type AgentInput } from './agent-input.js';

export const MAX_CARD_BYTES = 256 * 1024;
const MAX_JWKS_BYTES = 64 * 1024;
// Signatures by a public key only: with an HMAC (HS256…) whoever checks holds the key and could sign.
const ASYMMETRIC_ALGORITHMS = ['ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'EdDSA', 'Ed25519'];

export interface LoadOptions {
  // For the whole import: the card, every key set and every address check together.
  timeoutMs: number;
  allowPrivate: boolean;
  resolve?: ResolveHost;
  // Ends the import's deadline (deps.deadlines; a test's own ends it when the test chooses).
  deadlines: Deadlines;
}

// The one deadline of an import: each step runs only while it has not passed, and is cut when it does.
class Deadline {
  readonly signal: AbortSignal;
  constructor(
    readonly totalMs: number,
    deadlines: Deadlines,
  ) {
    this.signal = deadlines.after(totalMs);
  }
  get passed(): boolean {
    return this.signal.aborted;
  }
  expired(): AppError {
    return unusable(`the card and its key sets did not arrive within ${this.totalMs} ms`);
  }
  // The promise, unless the deadline passes first.
  async race<T>(promise: Promise<T>): Promise<T> {
    if (this.passed) throw this.expired();
    let onAbort: (() => void) | undefined;
    const late = new Promise<never>((_, reject) => {
      onAbort = () => reject(this.expired());
      this.signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([promise, late]);
    } finally {
      this.signal.removeEventListener('abort', onAbort!);
    }
  }
}

const unusable = (message: string) => new AppError('UNPROCESSABLE', message, { field: 'cardUrl' });

const str = (max: number) => z.string().max(max, `must be at most ${max} characters`);

const cardSchema = z.object({
  name: str(1000).trim().min(1, 'must not be empty'),
  description: str(20_000).optional(),
  version: str(200).optional(),
  provider: z.object({ organization: str(500).optional(), url: str(2048).optional() }).optional(),
  documentationUrl: str(2048).optional(),
  iconUrl: str(2048).optional(),
  supportedInterfaces: z
    .array(z.object({ url: str(2048), protocolBinding: str(64).optional(), protocolVersion: str(32).optional(), tenant: str(200).optional() }))
    .max(20, 'at most 20 entries')
    .optional(),
  // v0.3 cards: one url with its transport.
  url: str(2048).optional(),
  preferredTransport: str(64).optional(),
  protocolVersion: str(32).optional(),
  capabilities: z
    .object({ streaming: z.boolean().optional(), pushNotifications: z.boolean().optional(), extensions: z.array(z.unknown()).max(50).optional() })
    .optional(),
  securitySchemes: z.record(str(200), z.record(z.string(), z.unknown())).optional(),
  skills: z
    .array(
      z.object({
        id: str(200).trim().min(1, 'must not be empty'),
        name: str(500).optional(),
        description: str(5000).optional(),
        tags: z.array(str(200)).max(50, 'at most 50 entries').optional(),
      }),
    )
    .max(100, 'at most 100 entries')
    .optional(),
  signatures: z
    .array(z.object({ protected: str(8192), signature: str(8192), header: z.record(z.string(), z.unknown()).optional() }))
    .max(10, 'at most 10 entries')
    .optional(),
});

export type AgentCardJson = z.output<typeof cardSchema> & Record<string, unknown>;

export interface LoadedCard {
  json: Record<string, unknown>;
  card: AgentCardJson;
  verified: boolean;
  // The JSON-RPC interface deliveries use.
  rpcUrl: string;
  protocolVersion: string;
}

async function fetchJson(url: string, what: string, maxBytes: number, opts: LoadOptions, deadline: Deadline): Promise<unknown> {
  if (deadline.passed) throw deadline.expired();
  const result = await guardedRequest({
    method: 'GET',
    url,
    headers: { accept: 'application/json', 'user-agent': 'task-marketplace' },
    // The import's one deadline ends the exchange.
    signal: deadline.signal,
    maxResponseBytes: maxBytes,
    keepBody: true,
    allowPrivate: opts.allowPrivate,
    resolve: opts.resolve,
  });
  if (result.kind === 'error') {
    if (/^forbidden|^URL |^the address of /.test(result.error)) throw invalid('cardUrl', `${what} URL is refused: ${result.error}`);
    if (result.error === 'timeout') throw deadline.expired();
    throw unusable(`${what} could not be fetched: ${result.error}`);
  }
  if (result.status < 200 || result.status > 299) throw unusable(`${what} URL answered HTTP ${result.status}`);
  const body = result.body!;
  if (body.overLimit) throw unusable(`${what} is larger than ${maxBytes} bytes`);
  if (!body.complete) throw deadline.passed ? deadline.expired() : unusable(`${what} was cut short`);
  try {
    return JSON.parse(body.bytes.toString('utf8'));
  } catch {
    throw unusable(`${what} is not JSON`);
  }
}

const issuePath = (path: ReadonlyArray<PropertyKey>) =>
  path.reduce<string>((acc, key) => (typeof key === 'number' ? `${acc}[${key}]` : `${acc}.${String(key)}`), 'card');

function parseCard(json: unknown): AgentCardJson {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw unusable('the card must be a JSON object');
  const unsafe = unsafeInput(json, 'card');
  if (unsafe) throw unusable(`the card is not usable: ${unsafe.message}`);
  const parsed = cardSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw unusable(`the card is not usable: ${issuePath(issue.path)} ${issue.message}`);
  }
  return { ...(json as Record<string, unknown>), ...parsed.data };
}

// The JSON-RPC interface deliveries use. Of a verified card, only from what its signature covers: the
// A2A 1.0 shape (supportedInterfaces); v0.3's top-level url and preferredTransport are outside it.
function rpcInterface(card: AgentCardJson, signedOnly: boolean): { url: string; protocolVersion: string } {
  const interfaces = signedOnly ? signedInterfaces(card) : (card.supportedInterfaces ?? []);
  const jsonRpc = interfaces.find((i) => (i.protocolBinding || 'JSONRPC').toUpperCase() === 'JSONRPC');
  if (jsonRpc) return { url: jsonRpc.url, protocolVersion: jsonRpc.protocolVersion || '1.0' };
  if (signedOnly) throw unusable('the card is signed, but its signed part declares no JSON-RPC interface (supportedInterfaces with protocolBinding JSONRPC); a v0.3 url is not covered by the signature');
  if (card.url && (card.preferredTransport ?? 'JSONRPC').toUpperCase() === 'JSONRPC') return { url: card.url, protocolVersion: card.protocolVersion || '0.3' };
  throw unusable('the card declares no JSON-RPC interface (supportedInterfaces with protocolBinding JSONRPC)');
}

// The interfaces as the signature covers them (the SDK signs and verifies the card's A2A 1.0 JSON).
function signedInterfaces(card: AgentCardJson): Array<{ url: string; protocolBinding?: string; protocolVersion?: string }> {
  return AgentCardCodec.fromJSON(card).supportedInterfaces;
}

// A URL in the card, judged like an endpoint (shape; unless private addresses are allowed, a public host).
async function checkCardUrl(value: string | undefined, where: string, opts: LoadOptions, deadline: Deadline): Promise<void> {
  if (!value) return;
  const check = await deadline.race(checkEndpointUrl(value, { allowPrivate: opts.allowPrivate }));
  if (!check.ok) throw unusable(`the card's ${where} is refused: ${check.reason}`);
}

function authTypeOf(card: AgentCardJson): string | null {
  const scheme = Object.values(card.securitySchemes ?? {})[0];
  if (!scheme) return null;
  if ('httpAuthSecurityScheme' in scheme) return 'bearer';
  if ('apiKeySecurityScheme' in scheme) return 'api_key';
  if ('oauth2SecurityScheme' in scheme) return 'oauth2';
  if ('openIdConnectSecurityScheme' in scheme) return 'openid_connect';
  if ('mtlsSecurityScheme' in scheme) return 'mtls';
  // v0.3 spelled the kind in `type`.
  return typeof scheme.type === 'string' ? scheme.type.slice(0, 64) : null;
}

const cut = (text: string | undefined, max: number) => (text ?? '').trim().slice(0, max);

// The agent's fields from its card, as the owner would have entered them.
export function agentFieldsOf(loaded: LoadedCard, cardUrl: string): AgentInput {
  const { card } = loaded;
  const skills = card.skills ?? [];
  const fields = {
    name: cut(card.name, 100),
    description: cut(card.description, 500),
    longDescription: cut(card.description, 20_000),
    endpoint: loaded.rpcUrl,
    protocols: ['a2a'],
    capabilities: [...new Set(skills.map((s) => cut(s.id, 64).toLowerCase()).filter(Boolean))].slice(0, 50),
    tags: [...new Set(skills.flatMap((s) => s.tags ?? []).map((t) => cut(t, 64).toLowerCase()).filter(Boolean))].slice(0, 50),
    docsUrl: card.documentationUrl ?? null,
    manifestUrl: cardUrl,
    authType: authTypeOf(card),
    version: card.version ? cut(card.version, 64) : null,
  };
  const parsed = agentInput.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw unusable(`the card does not make a usable agent: ${issue.path.join('.')} ${issue.message}`);
  }
  return parsed.data;
}

type Jwk = Record<string, unknown>;

// The public key a signature names, from its jku: a key set on the card's own origin (whoever serves the
// card there publishes the key), fetched once per URL for the whole import. A key the card carries, a key
// set elsewhere, or a symmetric key (kty oct: a shared secret, anyone holding it can sign) proves nothing.
function keyFinder(cardUrl: string, opts: LoadOptions, deadline: Deadline) {
  const origin = new URL(cardUrl).origin;
  const keySets = new Map<string, Promise<Jwk[]>>();
  return async (kid: string, jku?: string): Promise<Jwk> => {
    if (!jku) throw new Error('the signature names no key set (jku); a key the card carries itself proves nothing');
    const shape = checkUrlShape(jku);
    if (!shape.ok) throw new Error(`jku: ${shape.reason}`);
    if (shape.url.origin !== origin) throw new Error(`the key set ${jku} is not on the card's origin ${origin}`);
    let keySet = keySets.get(shape.url.href);
    if (!keySet) {
      keySet = fetchJson(shape.url.href, 'the signature’s key set (jku)', MAX_JWKS_BYTES, opts, deadline).then((jwks) => {
        const keys = (jwks as { keys?: unknown } | null)?.keys;
        return Array.isArray(keys) ? keys.filter((k): k is Jwk => typeof k === 'object' && k !== null) : [];
      });
      // A failed fetch is not retried by the next signature naming the same URL.
      keySet.catch(() => undefined);
      keySets.set(shape.url.href, keySet);
    }
    const keys = await keySet;
    const key = keys.find((k) => k.kid === kid) ?? (keys.length === 1 ? keys[0] : undefined);
    if (!key) throw new Error(`no key ${kid} in ${jku}`);
    if (key.kty === 'oct') throw new Error(`the key ${kid} is symmetric (kty oct): it proves nothing`);
    return key;
  };
}

function decodeHeader(encoded: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

// True when a signature by a key the card does not carry (a jku on its own origin) verifies; false when
// the card has no such signature (none, or only embedded keys); a 422 when it has one and none verifies.
async function verifySignatures(card: AgentCardJson, cardUrl: string, opts: LoadOptions, deadline: Deadline): Promise<boolean> {
  const origin = new URL(cardUrl).origin;
  const signatures = card.signatures ?? [];
  signatures.forEach((signature, i) => {
    const header = decodeHeader(signature.protected);
    if (!header || typeof header.alg !== 'string' || typeof header.kid !== 'string' || typeof header.typ !== 'string') {
      throw unusable(`the card's signature cannot be checked: card.signatures[${i}] has no protected header with alg, typ and kid`);
    }
  });
  const checkable = signatures.filter((signature) => {
    const jku = decodeHeader(signature.protected)?.jku;
    if (typeof jku !== 'string') return false;
    const shape = checkUrlShape(jku);
    return shape.ok && shape.url.origin === origin;
  });
  if (checkable.length === 0) return false;
  const { DefaultAgentCardResolver } = await loadA2AClient();
  let payload: string;
  try {
    // The SDK's canonical form (JCS over the card's A2A 1.0 JSON without signatures): what a signature covers.
    payload = Buffer.from(canonicalizeAgentCard(new DefaultAgentCardResolver().normalizeAgentCard(card))).toString('base64url');
  } catch (error) {
    throw unusable(`the card's signature cannot be checked: ${(error as Error).message}`);
  }
  // One signature that verifies is enough (key rotation); otherwise the first reason is told.
  const find = keyFinder(cardUrl, opts, deadline);
  let firstProblem: unknown = null;
  for (const signature of checkable) {
    try {
      const header = decodeHeader(signature.protected)!;
      const key = await find(String(header.kid), String(header.jku));
      await flattenedVerify({ payload, protected: signature.protected, signature: signature.signature, header: signature.header }, key, { algorithms: ASYMMETRIC_ALGORITHMS });
      return true;
    } catch (error) {
      firstProblem ??= error;
    }
  }
  if (firstProblem instanceof AppError) throw firstProblem.code === 'INVALID_INPUT' ? firstProblem : unusable(`the card's signature does not verify: ${firstProblem.message}`);
  throw unusable(`the card's signature does not verify: ${firstProblem instanceof Error ? firstProblem.message : 'no signature verifies'}`);
}

export async function loadCard(cardUrl: string, opts: LoadOptions): Promise<LoadedCard> {
  const shape = checkUrlShape(cardUrl);
  if (!shape.ok) throw invalid('cardUrl', `cardUrl: ${shape.reason}`);
  const deadline = new Deadline(opts.timeoutMs, opts.deadlines);
  const json = await fetchJson(cardUrl, 'the card', MAX_CARD_BYTES, opts, deadline);
  const card = parseCard(json);
  const verified = await verifySignatures(card, cardUrl, opts, deadline);
  const rpc = rpcInterface(card, verified);
  await checkCardUrl(rpc.url, 'JSON-RPC interface URL', opts, deadline);
  await checkCardUrl(card.documentationUrl, 'documentationUrl', opts, deadline);
  await checkCardUrl(card.iconUrl, 'iconUrl', opts, deadline);
  await checkCardUrl(card.provider?.url, 'provider.url', opts, deadline);
  return { json: json as Record<string, unknown>, card, verified, rpcUrl: rpc.url, protocolVersion: rpc.protocolVersion };
}
