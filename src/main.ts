// Starts the service: configuration, database (embedded or DATABASE_URL) with migrations, jobs, HTTP.
import { baseUrlOf, loadConfig, ConfigError } from './config.js';
import { createLogger, wantsPrettyLogs } from './logger.js';
import { openDatabase, DatabaseBusyError } from './db/database.js';
import { loadServerKey } from './crypto/server-key.js';
import { createApp } from './app.js';
import { ensurePortFree, PortUnavailableError } from './http/port-check.js';
import { ensureDatabaseReachable, DatabaseUnreachableError } from './db/reachability.js';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(error.message + '\n');
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel, { pretty: wantsPrettyLogs(config.logFormat, config.env) });
  let database;
  try {
    // Settings the operator must fix are told in one line with exit code 2, before anything is built.
    await ensurePortFree(config.port, config.host);
    if (config.databaseUrl) await ensureDatabaseReachable(config.databaseUrl);
    database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      mode: 'own',
      preparedStatements: config.databasePreparedStatements,
      poolSize: config.databasePoolSize,
    });
  } catch (error) {
    if (error instanceof PortUnavailableError || error instanceof DatabaseUnreachableError) {
      process.stderr.write(error.message + '\n');
      process.exit(2);
    }
    if (error instanceof DatabaseBusyError) {
      process.stderr.write(`DATA_DIR: ${error.message}; stop that server, or set DATA_DIR to another directory\n`);
      process.exit(2);
    }
    throw error;
  }
  logger.info({ database: database.embedded ? `embedded (${config.dataDir})` : 'postgresql' }, 'database ready');
  const serverKey = await loadServerKey({ secretKey: config.secretKey, dataDir: config.dataDir });
  const app = await createApp({ config, database, logger, serverKey });
  const { port } = await app.listen();
  const base = baseUrlOf(config, port);
  logger.info({ port, graphql: `${base}/graphql`, apiReference: `${base}/docs/api` }, `dashboard at ${base}/`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, drainMs: config.shutdownDrainMs }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, config.shutdownDrainMs + 25_000);
    force.unref();
    try {
      // Still serving, but no longer ready: the load balancer takes the process out before it closes.
      app.drain();
      if (config.shutdownDrainMs > 0) await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
      await app.close();
      await database.close();
      logger.info('stopped');
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

await main();
