// Runs one parsed CLI command against the service's database (cli.ts parses and checks the arguments
// first, so that a usage error does not load any of this).
import type { CliCommand } from './command.js';
import { ConfigError, loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { createLogger } from '../logger.js';
import { loadServerKey } from '../crypto/server-key.js';
import { createSecretBox } from '../crypto/secret-box.js';
import { createServices } from '../composition.js';
import { AppError } from '../errors.js';
import { createMetrics } from '../metrics/metrics.js';
import { createLocalBus, createPgBus } from '../events/bus.js';
import { realTime } from '../deps.js';
import { cachedResolver } from '../delivery/dns-cache.js';
import { resolveWithSystemDns } from '../delivery/url-guard.js';

export async function runCommand(command: CliCommand, values: Record<string, string | boolean | undefined>): Promise<number> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    // A setting the operator must fix: one line naming it, as `npm start` says it, not a stack trace.
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(error.message + '\n');
    return 2;
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, mode: 'shared', poolSize: 2 });
  const logger = createLogger('silent');
  // The running service hears what the command announces (a revoked API key ends its subscriptions):
  // through the PostgreSQL server, or the embedded database's socket (its notification relay).
  const events = database.embedded ? await createLocalBus({ url: database.url, listen: false, logger }) : await createPgBus(database.url, logger);
  try {
    const serverKey = await loadServerKey({ secretKey: config.secretKey, dataDir: config.dataDir });
    const services = createServices({
      ...realTime,
      resolveHost: cachedResolver(resolveWithSystemDns, realTime.clock),
      events,
      metrics: createMetrics(),
      config,
      prisma: database.prisma,
      sql: database.sql,
      searchSql: database.searchSql,
      logger,
      secretBox: createSecretBox(serverKey),
      serverKey,
      urls: { base: config.publicBaseUrl ?? `http://localhost:${config.port}` },
    });
    const out = await command.run(services, values);
    process.stdout.write((values.json ? JSON.stringify(out.json) : out.text) + '\n');
    return 0;
  } catch (error) {
    if (error instanceof AppError) {
      process.stderr.write(values.json ? JSON.stringify({ error: { code: error.code, message: error.message } }) + '\n' : `error: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await events.close();
    await database.close();
  }
}
