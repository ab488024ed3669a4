// What the services need from the running process. Built once in app.ts; tests build their own.
import type { Config } from './config.js';
import type { PrismaClient } from './db/client.js';
import type { SecretBox } from './crypto/secret-box.js';
import type { Logger } from './logger.js';
import type { EventBus } from './events/bus.js';
import type { Metrics } from './metrics/metrics.js';

export interface Deps {
  config: Config;
  prisma: PrismaClient;
  // The postgres search engine's client (db/client.ts createSearchClient); may be `prisma` itself.
  searchPrisma: PrismaClient;
  logger: Logger;
  secretBox: SecretBox;
  serverKey: Buffer;
  events: EventBus;
  metrics: Metrics;
  // The address agents call back on; known once the HTTP server is listening.
  urls: { base: string };
}
