// Request budgets per caller, over a fixed one-minute window:
// - "default": every request and every WebSocket subscription, counted against the authenticated user
//   (whatever the spelling of the Authorization header), or against the client address when none is sent;
// - "auth": requests whose credentials do not verify, counted per client address, with a smaller budget,
//   so guessing keys is throttled too.
//
// The counters live where every process of the service sees them: Redis with REDIS_URL, else the
// PostgreSQL server, else (the embedded database has a single process) this process's memory. A store
// that fails falls back to memory for the moment: the service stays up, limited per process.
//
// Answers carry the fields of the IETF draft "RateLimit header fields for HTTP"
// (draft-ietf-httpapi-ratelimit-headers-10/11): `RateLimit-Policy: "default";q=600;w=60` and
// `RateLimit: "default";r=599;t=60` (remaining requests, seconds until the window ends).
import { createRateLimitTable, RATE_LIMIT_SCHEMA, RATE_LIMIT_TABLE } from '../db/rate-limit-table.js';
import { isIPv6 } from 'node:net';
import pg from 'pg';
import { packageLoader } from '../load-package.js';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Logger } from '../logger.js';

export const WINDOW_SECONDS = 60;

export type RateLimitStore = { kind: 'memory' } | { kind: 'postgres'; url: string } | { kind: 'redis'; url: string };

export interface RateLimitSettings {
  perMinute: number;
  failedAuthPerMinute: number;
  store: RateLimitStore;
  // Separates the counters of services (or test runs) sharing one store.
  keyPrefix: string;
}

export interface Caller {
  // The authenticated user; null when no credentials were sent or they did not verify.
  principal: string | null;
  // The credentials were sent and did not verify.
  authFailed: boolean;
  address: string;
}

export interface RateLimitDecision {
  allowed: boolean;
  // RateLimit-Policy and RateLimit; Retry-After too when refused.
  headers: Record<string, string>;
  retryAfterSeconds: number;
}

export interface RateLimits {
  // Counts `requests` requests (1 unless a JSON-RPC batch carries several calls) against the caller's budget.
  check(caller: Caller, requests?: number): Promise<RateLimitDecision | null>;
  close(): Promise<void>;
}

// IPv6 clients usually hold a whole /64, so one bucket per /64, not per address.
export function addressKey(address: string | undefined): string {
  if (!address) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

const loadRedis = packageLoader<typeof import('ioredis')>('ioredis');

const disabled: RateLimits = { check: async () => null, close: async () => {} };

export async function createRateLimits(settings: RateLimitSettings, logger: Pick<Logger, 'warn' | 'error'>): Promise<RateLimits> {
  if (settings.perMinute === 0) return disabled;
  const closers: Array<() => Promise<unknown>> = [];

  async function storeOptions(): Promise<Record<string, unknown>> {
    const { store } = settings;
    if (store.kind === 'redis') {
      // No offline queue: a Redis that is down fails the call at once, and the memory fallback answers.
      const client = new (loadRedis().Redis)(store.url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true });
      client.on('error', (error: Error) => logger.warn({ err: error }, 'rate limit store (redis) error'));
      await client.connect().catch((error: unknown) => logger.error({ err: error }, 'rate limit store (redis) unreachable'));
      closers.push(() => client.quit().catch(() => client.disconnect()));
      return { storeClient: client };
    }
    if (store.kind === 'postgres') {
      const pool = new pg.Pool({ connectionString: store.url, max: 4 });
      pool.on('error', (error) => logger.warn({ err: error }, 'rate limit store (postgres) error'));
      closers.push(() => pool.end());
      await createRateLimitTable(pool);
      // The library removes expired rows every few minutes, which keeps the table small.
      return { storeClient: pool, storeType: 'pool', schemaName: RATE_LIMIT_SCHEMA, tableName: RATE_LIMIT_TABLE, tableCreated: true };
    }
    return {};
  }

  const shared = await storeOptions();
  const limiter = (name: string, points: number): RateLimiterAbstract => {
    const options = { keyPrefix: `${settings.keyPrefix}:${name}`, points, duration: WINDOW_SECONDS };
    // Memory entries expire with their window, so the map holds at most the callers of the last minute.
    const memory = new RateLimiterMemory(options);
    if (settings.store.kind === 'redis') return new RateLimiterRedis({ ...options, ...shared, insuranceLimiter: memory } as never);
    if (settings.store.kind === 'postgres') return new RateLimiterPostgres({ ...options, ...shared, insuranceLimiter: memory } as never);
    return memory;
  };
  const policies = {
    default: { points: settings.perMinute, limiter: limiter('default', settings.perMinute) },
    auth: { points: settings.failedAuthPerMinute, limiter: limiter('auth', settings.failedAuthPerMinute) },
  };

  return {
    async check(caller, requests = 1) {
      const name = caller.authFailed ? 'auth' : 'default';
      const policy = policies[name];
      const key = caller.authFailed || !caller.principal ? `a:${addressKey(caller.address)}` : `u:${caller.principal}`;
      let result: RateLimiterRes;
      let allowed = true;
      try {
        result = await policy.limiter.consume(key, requests);
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) {
          // Both the store and its memory fallback failed: let the request through rather than refuse everyone.
          logger.error({ err: rejection }, 'rate limit check failed');
          return null;
        }
        result = rejection;
        allowed = false;
      }
      const resetSeconds = Math.max(1, Math.ceil(result.msBeforeNext / 1000));
      const headers: Record<string, string> = {
        'ratelimit-policy': `"${name}";q=${policy.points};w=${WINDOW_SECONDS}`,
        ratelimit: `"${name}";r=${result.remainingPoints};t=${resetSeconds}`,
      };
      if (!allowed) headers['retry-after'] = String(resetSeconds);
      return { allowed, headers, retryAfterSeconds: resetSeconds };
    },
    async close() {
      await Promise.all(closers.map((close) => close().catch(() => {})));
    },
  };
}
