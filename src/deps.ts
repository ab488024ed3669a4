// What the services need from the running process. Built once in app.ts; tests build their own.
import type { Config } from './config.js';
import type { PrismaClient } from './db/client.js';
import type { Sql } from './db/kysely.js';
import type { SecretBox } from './crypto/secret-box.js';
import type { Logger } from './logger.js';
import type { EventBus } from './events/bus.js';
import type { Metrics } from './metrics/metrics.js';
import { defaultRetrySchedule, type RetrySchedule } from './delivery/backoff.js';
import type { ResolveHost } from './delivery/url-guard.js';

// The time the rules go by (windows, expiry, retries, timeouts). Tests pass a clock they move instead
// of waiting; log lines and database defaults keep the real time.
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

// When a deadline of outbound work (a card import) has passed: a signal that aborts then. Tests pass
// their own, to end a deadline at the moment they choose instead of racing the wall clock.
export interface Deadlines {
  after(ms: number): AbortSignal;
}

export const systemDeadlines: Deadlines = { after: (ms) => AbortSignal.timeout(ms) };

// What the process may set apart from its configuration; tests shorten or move them.
export interface TimeDeps {
  clock: Clock;
  retrySchedule: RetrySchedule;
  deadlines: Deadlines;
}

export const realTime: TimeDeps = { clock: systemClock, retrySchedule: defaultRetrySchedule, deadlines: systemDeadlines };

export interface Deps extends TimeDeps {
  config: Config;
  prisma: PrismaClient;
  // The stores' typed SQL builder (db/kysely.ts).
  sql: Sql;
  // The postgres search engine's connections (db/kysely.ts createSearchSql); may be `sql` itself.
  searchSql: Sql;
  logger: Logger;
  secretBox: SecretBox;
  serverKey: Buffer;
  events: EventBus;
  metrics: Metrics;
  // The address agents call back on; known once the HTTP server is listening.
  urls: { base: string };
  // The names of agents' hosts to addresses for every outbound exchange: the system resolver behind the
  // process's short cache (delivery/dns-cache.ts), on `clock`.
  resolveHost: ResolveHost;
}
