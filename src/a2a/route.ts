// The marketplace as an A2A server over HTTP: its agent card at /.well-known/agent-card.json, one per
// public active agent at /a2a/agents/{slug}/.well-known/agent-card.json, and JSON-RPC at /a2a (routed)
// and /a2a/agents/{slug} (that agent). The SDK's JSON-RPC transport handler reads and writes the wire
// format (v0.3 peers through its compatibility handler); MarketplaceA2AHandler does the work.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AgentCard } from '@a2a-js/sdk';
import type { Authentication } from '../services/accounts/authenticate.js';
import { ScopeRefusal, scopeRefusalError } from './scope-refusal.js';
import { AppError, noCredential, notFound } from '../errors.js';
import { isJsonContentType, readBody } from '../http/body.js';
import type { ProtocolRoute } from '../http/protocol-route.js';
import { sendAppError, sendError, sendJson } from '../http/respond.js';
import type { Logger } from '../logger.js';
import type { RunOperation } from '../graphql/operation.js';
import type { RouteExecutor } from '../rest/runner.js';
import type { Context } from '../schema/context.js';
import { A2A_PROTOCOL_VERSION, agentCard, marketplaceCard, type PublicAgentForCard } from './cards.js';
import { MarketplaceA2AHandler } from './handler.js';
import { AGENT_FOR_CARD } from './operations.js';
import type { FollowTask } from './updates.js';
import { endMessage, type EndReason, type Slot } from '../graphql/live-streams.js';
import { TOO_MANY_SUBSCRIPTIONS } from '../graphql/stream-owner.js';
import { bearerChallenge } from '../auth/challenge.js';
import type { A2APushService } from '../services/a2a-pushes.js';
import { paramsProblem } from './params.js';
import { lazyImport } from '../load-package.js';
import { A2A_OPERATIONS } from './openapi-operations.js';

// The SDK's server handlers are loaded with the first JSON-RPC request, not at start (most services
// never answer one); its message types and errors load with the service.
const loadA2AServer = lazyImport(() => Promise.all([import('@a2a-js/sdk/server'), import('@a2a-js/sdk/compat/v0_3/server')]));

const CARD_PATH = '/.well-known/agent-card.json';
const AGENT_PATH = /^\/a2a\/agents\/([^/]+)(\/\.well-known\/agent-card\.json)?\/?$/;

export interface A2ARouteOptions {
  execute: RouteExecutor;
  runOperation: RunOperation;
  follow: FollowTask;
  contextFor: (authorization: string | undefined, known?: Authentication) => Promise<Context>;
  baseUrl: () => string;
  jwt: boolean;
  blockingWaitMs: number;
  pushes: A2APushService;
  // A slot among the caller's open subscriptions (the caps of /graphql's); null when none is free.
  // `end` is called when the credential that opened it is revoked or expires.
  openStream(req: IncomingMessage, authentication: Authentication | undefined, end: (reason: EndReason) => void): Slot | null;
  logger: Logger;
}

const rpcError = (id: unknown, code: number, message: string) => ({ jsonrpc: '2.0', id: id ?? null, error: { code, message } });

// The JSON-RPC 2.0 envelope (one request; batches are not part of A2A).
function envelopeProblem(body: unknown): string | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the request must be one JSON-RPC request object';
  const request = body as Record<string, unknown>;
  if (request.jsonrpc !== '2.0') return 'jsonrpc must be "2.0"';
  if (typeof request.method !== 'string' || request.method === '') return 'method must be a string';
  if ('id' in request && request.id !== null && typeof request.id !== 'string' && !Number.isInteger(request.id)) return 'id must be a string, an integer or null';
  if ('params' in request && (typeof request.params !== 'object' || request.params === null || Array.isArray(request.params))) return 'params must be an object';
  return null;
}

// The A2A 1.0 JSON-RPC methods (a 0.3 request spells them with a slash); the protocol fuzzer
// (scripts/fuzz-protocols.ts) sends each of them.
export const A2A_V1_METHODS = [
  'SendMessage',
  'SendStreamingMessage',
  'GetTask',
  'ListTasks',
  'CancelTask',
  'SubscribeToTask',
  'CreateTaskPushNotificationConfig',
  'GetTaskPushNotificationConfig',
  'ListTaskPushNotificationConfigs',
  'DeleteTaskPushNotificationConfig',
  'GetExtendedAgentCard',
] as const;
const V1_METHODS: ReadonlySet<string> = new Set(A2A_V1_METHODS);

// A send that waits for its task to settle: 1.0 unless returnImmediately, 0.3 only when blocking is true
// (the SDK's reading of 0.3, whose default is not to wait).
function isBlockingSend(method: string, params: unknown, legacy: boolean): boolean {
  const configuration = (params as { configuration?: { returnImmediately?: unknown; blocking?: unknown } } | undefined)?.configuration;
  if (legacy) return method === 'message/send' && configuration?.blocking === true;
  return method === 'SendMessage' && configuration?.returnImmediately !== true;
}

// If-None-Match: `*` or a list of entity tags, weak ones compared weakly (RFC 9110 §13.1.2).
function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

function decodeSlug(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw notFound('agent');
  }
}

export function createA2ARoute(opts: A2ARouteOptions): ProtocolRoute {
  // A public active agent by slug, as anyone may see it.
  async function publicAgent(slug: string, context: Context): Promise<PublicAgentForCard> {
    const result = await opts.runOperation(AGENT_FOR_CARD, { slugOrId: slug }, context);
    const agent = (result.data as { agent?: PublicAgentForCard } | null)?.agent;
    if (!agent || agent.status !== 'active' || agent.slug !== slug) throw notFound('agent');
    return agent;
  }

  // A card with its ETag (A2A 1.0 §8.6.1): a client that has it is answered 304 without the body.
  function serveCard(req: IncomingMessage, res: ServerResponse, card: unknown) {
    const text = JSON.stringify(card);
    const etag = `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;
    const headers = { 'access-control-allow-origin': '*', 'cache-control': 'public, max-age=60', etag };
    if (etagMatches(req.headers['if-none-match'], etag)) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
    res.end(text);
  }

  async function serveRpc(req: IncomingMessage, res: ServerResponse, slug: string | null, authentication: Authentication | undefined) {
    if (!req.headers.authorization) throw noCredential();
    const context = await opts.contextFor(req.headers.authorization, authentication);
    const base = opts.baseUrl();
    const agent = slug === null ? null : await publicAgent(slug, await opts.contextFor(undefined));
    const card = (agent ? agentCard(base, agent, { jwt: opts.jwt }) : marketplaceCard(base, { jwt: opts.jwt })) as unknown as AgentCard;

    const raw = await readBody(req);
    if (raw.length > 0 && req.headers['content-type'] && !isJsonContentType(req.headers['content-type'])) {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'send the request as JSON (application/json or application/a2a+json)');
    }
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      return sendJson(res, 200, rpcError(null, -32700, 'Parse error: the body is not JSON'));
    }
    const problem = envelopeProblem(body);
    if (problem) return sendJson(res, 200, rpcError((body as { id?: unknown } | null)?.id, -32600, `Invalid Request: ${problem}`));
    const request = body as { id?: unknown; method: string };

    // A request without A2A-Version (or with an empty one) is A2A 0.3, as the specification says; 1.0
    // clients (the official SDK among them) send the header.
    const version = typeof req.headers['a2a-version'] === 'string' ? req.headers['a2a-version'].trim() : '';
    const legacy = version === '' || /^0\.3(\.\d+)?$/.test(version);
    if (!legacy && version !== A2A_PROTOCOL_VERSION && version !== '1') {
      return sendJson(res, 200, rpcError(request.id, -32009, `A2A version ${version} is not supported; use ${A2A_PROTOCOL_VERSION} (or 0.3)`));
    }
    if (legacy && !request.method.includes('/') && V1_METHODS.has(request.method)) {
      return sendJson(
        res,
        200,
        rpcError(request.id, -32601, `${request.method} is an A2A 1.0 method: send the header A2A-Version: 1.0 (a request without it is A2A 0.3, which spells its methods like message/send)`),
      );
    }
    const params = (body as { params?: unknown }).params;
    const badParams = paramsProblem(request.method, params);
    if (badParams) return sendJson(res, 200, rpcError(request.id, -32602, `Invalid params: ${badParams}`));

    // A blocking send holds a slot among the caller's open subscriptions while it waits, as a stream does.
    const wait = new AbortController();
    let slot: Slot | null = null;
    if (isBlockingSend(request.method, params, legacy)) {
      slot = opts.openStream(req, authentication, (reason) => {
        wait.abort();
        if (!res.headersSent) sendError(res, { code: 'UNAUTHENTICATED', message: endMessage[reason] });
      });
      if (!slot) return sendError(res, { code: 'RATE_LIMITED', message: TOO_MANY_SUBSCRIPTIONS });
      res.on('close', () => {
        wait.abort();
        slot?.release();
      });
    }
    const handler = new MarketplaceA2AHandler({
      execute: opts.execute,
      follow: opts.follow,
      context,
      card,
      agentId: agent?.id ?? null,
      base,
      blockingWaitMs: opts.blockingWaitMs,
      waitSignal: wait.signal,
      pushes: opts.pushes,
      logger: opts.logger,
    });
    const [{ JsonRpcTransportHandler, ServerCallContext }, { LegacyJsonRpcTransportHandler }] = await loadA2AServer();
    const callContext = new ServerCallContext({
      user: { isAuthenticated: true, userName: context.viewer!.id },
      requestedVersion: legacy ? '0.3' : A2A_PROTOCOL_VERSION,
    });
    let answer: unknown;
    try {
      answer = legacy
        ? await new LegacyJsonRpcTransportHandler(handler).handle(body as Record<string, unknown>, callContext)
        : await new JsonRpcTransportHandler(handler).handle(body as Record<string, unknown>, callContext);
    } finally {
      slot?.release();
    }
    // The credential ended while the send waited: that was answered already.
    if (res.headersSent || res.writableEnded) return;
    if (!(typeof answer === 'object' && answer !== null && Symbol.asyncIterator in answer)) {
      const refusal = handler.refusal;
      if (refusal && typeof answer === 'object' && answer !== null && 'error' in answer) {
        return sendJson(res, 200, { jsonrpc: '2.0', id: request.id ?? null, error: scopeRefusalError(refusal, legacy, new URL(base).host) });
      }
      return sendJson(res, 200, answer);
    }
    await streamAnswer(res, answer as AsyncGenerator<unknown>, request.id, legacy, (end) => opts.openStream(req, authentication, end), new URL(base).host);
  }

  return {
    operations: A2A_OPERATIONS,
    match(path) {
      if (path === CARD_PATH || path === '/a2a') return path;
      const m = AGENT_PATH.exec(path);
      if (m) return m[2] ? `/a2a/agents/:slug${CARD_PATH}` : '/a2a/agents/:slug';
      return null;
    },
    async handle(req, res, url, authentication) {
      try {
        const path = url.pathname;
        const m = AGENT_PATH.exec(path);
        const isCard = path === CARD_PATH || Boolean(m?.[2]);
        const method = req.method ?? 'GET';
        if (isCard) {
          if (method !== 'GET' && method !== 'HEAD') return sendError(res, { code: 'METHOD_NOT_ALLOWED', message: 'use GET' }, { allow: 'GET' });
          if (path === CARD_PATH) return serveCard(req, res, marketplaceCard(opts.baseUrl(), { jwt: opts.jwt }));
          const agent = await publicAgent(decodeSlug(m![1]!), await opts.contextFor(undefined));
          return serveCard(req, res, agentCard(opts.baseUrl(), agent, { jwt: opts.jwt }));
        }
        if (method !== 'POST') return sendError(res, { code: 'METHOD_NOT_ALLOWED', message: 'use POST (JSON-RPC)' }, { allow: 'POST' });
        await serveRpc(req, res, m ? decodeSlug(m[1]!) : null, authentication);
      } catch (error) {
        if (error instanceof AppError) {
          const challenge = bearerChallenge(opts.baseUrl(), '/a2a', req.headers.authorization ? 'invalid_token' : undefined);
          return sendAppError(res, error, error.code === 'UNAUTHENTICATED' ? { 'www-authenticate': challenge } : {});
        }
        throw error;
      }
    },
  };
}

// A streaming answer as Server-Sent Events, one JSON-RPC response per event. An error before the first
// event is answered as plain JSON-RPC; one after it is the stream's last event.
async function streamAnswer(
  res: ServerResponse,
  stream: AsyncGenerator<unknown>,
  id: unknown,
  legacy: boolean,
  openSlot: (end: (reason: EndReason) => void) => Slot | null,
  domain: string,
) {
  const iterator = stream[Symbol.asyncIterator]();
  // Loaded already: the answer came from these handlers.
  const [{ JsonRpcTransportHandler }, { LegacyJsonRpcTransportHandler }] = await loadA2AServer();
  const mapError = (error: unknown) => {
    if (error instanceof ScopeRefusal) return scopeRefusalError(error, legacy, domain);
    return legacy ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError(error) : JsonRpcTransportHandler.mapToJSONRPCError(error);
  };
  // The credential that opened the stream ended (revoked, expired): its last event says so.
  const slot = openSlot((reason) => {
    if (res.headersSent && !res.writableEnded) {
      res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id: id ?? null, error: { code: -32603, message: endMessage[reason] } })}\n\n`);
      res.end();
    } else if (!res.headersSent) {
      sendError(res, { code: 'UNAUTHENTICATED', message: endMessage[reason] });
    }
    void iterator.return(undefined);
  });
  if (!slot) {
    void iterator.return(undefined);
    return sendError(res, { code: 'RATE_LIMITED', message: TOO_MANY_SUBSCRIPTIONS });
  }
  res.on('close', () => slot.release());
  let first: IteratorResult<unknown>;
  try {
    first = await iterator.next();
  } catch (error) {
    slot.release();
    return sendJson(res, 200, { jsonrpc: '2.0', id: id ?? null, error: mapError(error) });
  }
  if (res.writableEnded) return;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' });
  res.on('close', () => void iterator.return(undefined));
  const write = (event: unknown) => {
    if (!res.destroyed && !res.writableEnded) res.write(`data: ${JSON.stringify(event)}\n\n`);
  };
  try {
    if (!first.done) write(first.value);
    for (;;) {
      if (res.destroyed || res.writableEnded) break;
      const next = await iterator.next();
      if (next.done) break;
      write(next.value);
    }
  } catch (error) {
    write({ jsonrpc: '2.0', id: id ?? null, error: mapError(error) });
  } finally {
    slot.release();
    if (!res.writableEnded) res.end();
  }
}
