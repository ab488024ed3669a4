// Fetching an A2A agent's card and making an agent of it. The card comes from a URL the owner gives, so
// it is hostile until proven otherwise: fetched through the guarded request (address policy inside the
// lookup, no redirects, the delivery timeout, a size limit), parsed, checked for depth and for strings
// PostgreSQL cannot store, checked against the card's shape with limits on every list and string, its
// URLs judged by the same policy as endpoints, and its signatures, when it has any, verified (JWS over
// the JCS-canonical card; the key from the signature's jku, fetched the same guarded way, or embedded).
// Every refusal is an AppError: 400 naming cardUrl for the URL itself, 422 for the card.
import { z } from 'zod';
import { DefaultAgentCardResolver } from '@a2a-js/sdk/client';
import { verifyAgentCardSignature } from '@a2a-js/sdk';
import { guardedRequest } from '../delivery/guarded-request.js';
import { checkEndpointUrl, checkUrlShape } from '../delivery/url-guard.js';
import { AppError, invalid } from '../errors.js';
import { unsafeInput } from '../http/unsafe-input.js';
import { agentInput, type AgentInput } from '../services/agent-input.js';

export const MAX_CARD_BYTES = 256 * 1024;
const MAX_JWKS_BYTES = 64 * 1024;

export interface LoadOptions {
  timeoutMs: number;
  allowPrivate: boolean;
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

async function fetchJson(url: string, what: string, maxBytes: number, opts: LoadOptions): Promise<unknown> {
  const result = await guardedRequest({
    method: 'GET',
    url,
    headers: { accept: 'application/json', 'user-agent': 'task-marketplace' },
    timeoutMs: opts.timeoutMs,
    maxResponseBytes: maxBytes,
    keepBody: true,
    allowPrivate: opts.allowPrivate,
  });
  if (result.kind === 'error') {
    if (/^forbidden|^URL /.test(result.error)) throw invalid('cardUrl', `${what} URL is refused: ${result.error}`);
    throw unusable(`${what} could not be fetched: ${result.error}`);
  }
  if (result.status < 200 || result.status > 299) throw unusable(`${what} URL answered HTTP ${result.status}`);
  const body = result.body!;
  if (body.overLimit) throw unusable(`${what} is larger than ${maxBytes} bytes`);
  if (!body.complete) throw unusable(`${what} did not arrive in time`);
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

function rpcInterface(card: AgentCardJson): { url: string; protocolVersion: string } {
  const jsonRpc = card.supportedInterfaces?.find((i) => (i.protocolBinding ?? 'JSONRPC').toUpperCase() === 'JSONRPC');
  if (jsonRpc) return { url: jsonRpc.url, protocolVersion: jsonRpc.protocolVersion || '1.0' };
  if (card.url && (card.preferredTransport ?? 'JSONRPC').toUpperCase() === 'JSONRPC') return { url: card.url, protocolVersion: card.protocolVersion || '0.3' };
  throw unusable('the card declares no JSON-RPC interface (supportedInterfaces with protocolBinding JSONRPC)');
}

// A URL in the card, judged like an endpoint (shape; unless private addresses are allowed, a public host).
async function checkCardUrl(value: string | undefined, where: string, opts: LoadOptions): Promise<void> {
  if (!value) return;
  const check = await checkEndpointUrl(value, { allowPrivate: opts.allowPrivate });
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

// The public key a signature names: from its jku (a JWKS, fetched guarded), else a jwk in its headers.
function keyFinder(card: AgentCardJson, opts: LoadOptions) {
  return async (kid: string, jku?: string): Promise<Record<string, unknown>> => {
    if (jku) {
      const shape = checkUrlShape(jku);
      if (!shape.ok) throw new Error(`jku: ${shape.reason}`);
      const jwks = (await fetchJson(jku, 'the signature’s key set (jku)', MAX_JWKS_BYTES, opts)) as { keys?: unknown };
      const keys = Array.isArray(jwks?.keys) ? (jwks.keys as Array<Record<string, unknown>>) : [];
      const key = keys.find((k) => k.kid === kid) ?? (keys.length === 1 ? keys[0] : undefined);
      if (!key) throw new Error(`no key ${kid} in ${jku}`);
      return key;
    }
    for (const signature of card.signatures ?? []) {
      const header = decodeHeader(signature.protected);
      const jwk = (header?.jwk ?? signature.header?.jwk) as Record<string, unknown> | undefined;
      if (jwk && (header?.kid ?? signature.header?.kid) === kid) return jwk;
    }
    throw new Error(`no key for kid ${kid}: the signature has neither jku nor an embedded jwk`);
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

async function verifySignatures(card: AgentCardJson, opts: LoadOptions): Promise<boolean> {
  if (!card.signatures?.length) return false;
  let sdkCard;
  try {
    sdkCard = new DefaultAgentCardResolver().normalizeAgentCard(card);
  } catch (error) {
    throw unusable(`the card's signature cannot be checked: ${(error as Error).message}`);
  }
  try {
    await verifyAgentCardSignature(keyFinder(card, opts))(sdkCard);
  } catch (error) {
    if (error instanceof AppError && error.code === 'INVALID_INPUT') throw error;
    throw unusable(`the card's signature does not verify: ${(error as Error).message}`);
  }
  return true;
}

export async function loadCard(cardUrl: string, opts: LoadOptions): Promise<LoadedCard> {
  const shape = checkUrlShape(cardUrl);
  if (!shape.ok) throw invalid('cardUrl', `cardUrl: ${shape.reason}`);
  const json = await fetchJson(cardUrl, 'the card', MAX_CARD_BYTES, opts);
  const card = parseCard(json);
  const rpc = rpcInterface(card);
  await checkCardUrl(rpc.url, 'JSON-RPC interface URL', opts);
  await checkCardUrl(card.documentationUrl, 'documentationUrl', opts);
  await checkCardUrl(card.iconUrl, 'iconUrl', opts);
  await checkCardUrl(card.provider?.url, 'provider.url', opts);
  const verified = await verifySignatures(card, opts);
  return { json: json as Record<string, unknown>, card, verified, rpcUrl: rpc.url, protocolVersion: rpc.protocolVersion };
}
