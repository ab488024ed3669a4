// The Idempotency-Key header for REST routes marked `idempotent` (POST /v1/tasks, POST /v1/credits).
// The same key from the same user within 24 hours answers with the first response, status included, and
// runs nothing; the same key with another request is 422; a repeat while the first still runs is 409.
//
// The first request claims the key by inserting its record (the primary key decides a race), runs, and
// stores a success before it is sent, so a client that got one always gets the same one again.
// Error answers (4xx, 5xx) are not kept: the key is freed, and a retry runs again. A 4xx changed nothing
// (or, for a declined card, left only a failed task), so after fixing the cause the retry goes through. A
// 5xx may come after the work committed: the work itself remembers the key (a task stores it in the
// transaction that creates it, a credit purchase keys its charge by it), so the retry finds what the
// first request made instead of doing it twice.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Sql } from '../db/kysely.js';
import { AppError, conflict, invalid } from '../errors.js';
import { freeClaim, insertClaim, recordOf, restartClaim, storeAnswer, sweepRecords } from '../stores/idempotency-store.js';
import type { JsonValue } from '../stores/json.js';
import type { Logger } from '../logger.js';
import { systemClock, type Clock } from '../deps.js';
import type { Context } from '../schema/context.js';
import { IDEMPOTENCY_WINDOW_MS } from '../services/idempotency-window.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
// A parsed answer body as the record keeps it (JSON.parse gives nothing else).
const jsonValue: z.ZodType<JsonValue | null> = z.json();
// A claim whose request never finished (the process died) is taken over after this long. Requests end
// well before it: the processor client's own timeouts and retries stay under five minutes.
export const ABANDONED_CLAIM_MS = 10 * 60 * 1000;
const MAX_KEY_LENGTH = 255;

export type IdempotencyStart = { kind: 'run'; finish: (res: ServerResponse) => ServerResponse; abandon: () => Promise<void> } | { kind: 'replay'; status: number; body: unknown };

// A request's identity: method, path and the parsed body with keys in a fixed order, so the same JSON
// sent with other spacing or key order is the same request.
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256').update(JSON.stringify([method, path, canonical(body)])).digest('hex');
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value as object).sort().map((k) => [k, canonical((value as Record<string, unknown>)[k])]));
  }
  return value;
}

export function idempotencyKeyOf(req: IncomingMessage): string | null {
  const raw = req.headers[IDEMPOTENCY_HEADER];
  if (raw === undefined) return null;
  const key = Array.isArray(raw) ? raw.join(',') : raw;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw invalid('Idempotency-Key', `the Idempotency-Key header must be 1 to ${MAX_KEY_LENGTH} characters`);
  }
  return key;
}

export function createIdempotencyStore(db: Sql, logger: Pick<Logger, 'error'>, clock: Clock = systemClock) {
  let lastSweep = 0;

  // Old records are removed now and then, not on every request.
  async function sweep(now: number): Promise<void> {
    if (now - lastSweep < 60_000) return;
    lastSweep = now;
    await sweepRecords(db, new Date(now - IDEMPOTENCY_WINDOW_MS));
  }

  async function claim(userId: string, key: string, requestHash: string): Promise<IdempotencyStart | null> {
    if (await insertClaim(db, { userId, key }, requestHash)) return running(userId, key);
    const record = await recordOf(db, { userId, key });
    if (!record) return null; // freed meanwhile: claim again
    const age = clock.now().getTime() - record.createdAt.getTime();
    if (age > IDEMPOTENCY_WINDOW_MS || (record.responseStatus === null && age > ABANDONED_CLAIM_MS)) {
      // Expired, or left behind by a request that never finished: the key starts afresh.
      return (await restartClaim(db, { userId, key }, record.createdAt, requestHash, new Date())) ? running(userId, key) : null;
    }
    if (record.requestHash !== requestHash) {
      throw new AppError('UNPROCESSABLE', 'this Idempotency-Key was already used with a different request', { field: 'Idempotency-Key' });
    }
    if (record.responseStatus === null) throw conflict('a request with this Idempotency-Key is still being processed; retry later');
    return { kind: 'replay', status: record.responseStatus, body: record.responseBody };
  }

  function running(userId: string, key: string): IdempotencyStart {
    const abandon = () => freeClaim(db, { userId, key });
    const store = async (status: number, text: string) => {
      if (status >= 400) return abandon();
      let body: JsonValue | null;
      try {
        body = jsonValue.parse(JSON.parse(text));
      } catch {
        body = text;
      }
      await storeAnswer(db, { userId, key }, status, body);
    };
    return { kind: 'run', abandon, finish: (res) => storingResponse(res, store, logger) };
  }

  return {
    /** Claims the key for this request, or returns the stored answer. Throws 409 or 422 as above. */
    async start(userId: string, key: string, requestHash: string): Promise<IdempotencyStart> {
      const now = clock.now().getTime();
      await sweep(now).catch((error: unknown) => logger.error({ err: error }, 'idempotency sweep failed'));
      for (;;) {
        const started = await claim(userId, key, requestHash);
        if (started) return started;
      }
    },
  };
}

export type IdempotencyStore = ReturnType<typeof createIdempotencyStore>;

// One store per database, so the sweep clock is shared by all requests of a process.
const stores = new WeakMap<Sql, IdempotencyStore>();

/**
 * For the REST runner: starts an idempotent request when the Idempotency-Key header is present, for the
 * caller of the request's own GraphQL context; without a user there is nothing to key on, and the
 * request goes on to answer 401.
 */
export async function startIdempotentRequest(
  context: Pick<Context, 'viewer' | 'services'>,
  req: IncomingMessage,
  request: { method: string; path: string; body: unknown },
): Promise<IdempotencyStart | null> {
  const key = idempotencyKeyOf(req);
  if (key === null) return null;
  if (!context.viewer) return null;
  const { sql, logger, clock } = context.services.deps;
  let store = stores.get(sql);
  if (!store) stores.set(sql, (store = createIdempotencyStore(sql, logger, clock)));
  return store.start(context.viewer.id, key, requestFingerprint(request.method, request.path, request.body));
}

/**
 * Wraps the response so that the answer written through writeHead + end (as http/respond.ts writes) is
 * stored before it is sent. Everything else passes through to the real response.
 */
function storingResponse(res: ServerResponse, store: (status: number, text: string) => Promise<void>, logger: Pick<Logger, 'error'>): ServerResponse {
  let status = 200;
  let headers: OutgoingHttpHeaders = {};
  const proxy: ServerResponse = new Proxy(res, {
    get(target, prop) {
      if (prop === 'writeHead') {
        return (code: number, h?: OutgoingHttpHeaders) => {
          status = code;
          headers = h ?? {};
          return proxy;
        };
      }
      if (prop === 'end') {
        return (chunk?: string | Buffer) => {
          const text = chunk === undefined ? '' : chunk.toString();
          void store(status, text)
            .catch((error: unknown) => logger.error({ err: error }, 'storing the idempotent response failed'))
            .finally(() => {
              target.writeHead(status, headers);
              target.end(chunk);
            });
          return proxy;
        };
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return proxy;
}
