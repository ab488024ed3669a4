// npm run db:migrate
// Applies the committed migrations to DATABASE_URL, or to the embedded database under DATA_DIR. The
// embedded database is opened in 'shared' mode, so this also works while a server holds the directory:
// the migrations then go through that server's socket.
import { loadConfig, ConfigError } from '../src/config.js';
import { openDatabase, DatabaseBusyError } from '../src/db/database.js';
import { applyMigrations } from '../src/db/schema-engine.js';

let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(2);
  }
  throw error;
}

let database;
try {
  // migrate: false because this script applies them itself, to report the names it applied.
  database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, mode: 'shared', migrate: false, poolSize: 1 });
} catch (error) {
  if (error instanceof DatabaseBusyError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

const where = database.embedded ? `the embedded database in ${config.dataDir}` : 'DATABASE_URL';
try {
  const applied = await applyMigrations(database.url);
  if (applied.length === 0) console.log(`${where} is up to date; no migrations to apply`);
  else {
    console.log(`applied ${applied.length} migration${applied.length === 1 ? '' : 's'} to ${where}:`);
    for (const name of applied) console.log(`  ${name}`);
  }
} finally {
  await database.close();
}
