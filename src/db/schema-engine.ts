// Prisma's schema engine, built to WASM, driven through a driver adapter. The Prisma CLI cannot fetch
// its native engine on these machines; this is the same engine, so migrations keep Prisma's own
// layout and bookkeeping (`_prisma_migrations`), exactly as `prisma migrate deploy` would leave them.
import { readFile, readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { bindMigrationAwareSqlAdapterFactory, ColumnTypeEnum, type SqlQueryable } from '@prisma/driver-adapter-utils';
import type { MigrationList, SchemaEngine } from '@prisma/schema-engine-wasm';
import { startEmbeddedDatabase } from './embedded.js';
import { migrationsAreCurrent } from './migrations-current.js';
import { projectRoot } from '../project-root.js';

export const schemaPath = path.join(projectRoot, 'prisma', 'schema.prisma');
export const migrationsDir = path.join(projectRoot, 'prisma', 'migrations');

const noFilters = { externalTables: [], externalEnums: [] };

type EngineModule = typeof import('@prisma/schema-engine-wasm') & {
  __wbg_set_wasm(exports: Record<string, unknown>): void;
  __wbindgen_start?: () => void;
};

// Node provides WebAssembly; the TypeScript libs used here do not declare it.
const wasm = (globalThis as unknown as {
  WebAssembly: { instantiate(bytes: Buffer, imports: object): Promise<{ instance: { exports: Record<string, unknown> } }> };
}).WebAssembly;

let lastPanicMessage: string | undefined;
let engineModule: Promise<EngineModule> | undefined;

// The engine arms 10 s timers it never clears. Once no engine call is running they are unreferenced, so a
// script that migrated can exit at once instead of waiting them out.
const engineTimers = new Set<NodeJS.Timeout>();
let runningEngines = 0;

function engineImports(glue: EngineModule): Record<string, unknown> {
  const imports: Record<string, unknown> = { ...glue };
  for (const name of Object.keys(glue)) {
    if (!name.startsWith('__wbg_setTimeout_')) continue;
    imports[name] = (callback: () => void, ms: number) => {
      const timer = setTimeout(() => {
        engineTimers.delete(timer);
        callback();
      }, ms >>> 0);
      engineTimers.add(timer);
      if (runningEngines === 0) timer.unref();
      return timer;
    };
  }
  return imports;
}

// The package is a bundler-style wasm-bindgen build: the glue module and the .wasm file are wired by hand.
function loadEngineModule(): Promise<EngineModule> {
  engineModule ??= (async () => {
    // The engine reports a Rust panic's message through this global before it throws.
    (globalThis as { PRISMA_WASM_PANIC_REGISTRY?: unknown }).PRISMA_WASM_PANIC_REGISTRY = {
      set_message(message: string) {
        lastPanicMessage = message;
      },
    };
    const glue = (await import('@prisma/schema-engine-wasm/schema_engine_bg')) as unknown as EngineModule;
    const require = createRequire(import.meta.url);
    const wasmPath = path.join(path.dirname(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg')), 'schema_engine_bg.wasm');
    const { instance } = await wasm.instantiate(await readFile(wasmPath), { './schema_engine_bg.js': engineImports(glue) });
    glue.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as (() => void) | undefined)?.();
    return glue;
  })();
  return engineModule;
}

export async function readSchema(file = schemaPath): Promise<string> {
  return readFile(file, 'utf8');
}

// The schema engine reads catalog columns of Postgres's one-byte "char" type (relkind, contype…) and expects
// the driver to call them Character; the pg driver adapter refuses that type. The client tags such columns
// and the adapter wrapper below reports them as Character.
const CHAR_OID = 18;
const TEXT_OID = 25;
const CHAR_TAG = '\u0000char';

class CatalogFriendlyClient extends pg.Client {
  override query(...args: unknown[]): never {
    const last = args.at(-1);
    if (typeof last === 'function') {
      // pg.Pool#query calls the client in callback style.
      args[args.length - 1] = (err: Error | null, res: pg.QueryResult) => last(err, res && tagCharColumns(res));
    }
    const result = (super.query as (...a: unknown[]) => unknown)(...args);
    return (result instanceof Promise ? result.then(tagCharColumns) : result) as never;
  }
}

function tagCharColumns(res: pg.QueryResult): pg.QueryResult {
  for (const field of res.fields ?? []) {
    if (field.dataTypeID === CHAR_OID) {
      field.dataTypeID = TEXT_OID;
      field.name += CHAR_TAG;
    }
  }
  return res;
}

function reportCharColumns<T extends SqlQueryable>(queryable: T): T {
  const queryRaw = queryable.queryRaw.bind(queryable);
  queryable.queryRaw = async (query) => {
    const result = await queryRaw(query);
    result.columnNames = result.columnNames.map((name, i) => {
      if (!name.endsWith(CHAR_TAG)) return name;
      result.columnTypes[i] = ColumnTypeEnum.Character;
      return name.slice(0, -CHAR_TAG.length);
    });
    return result;
  };
  return queryable;
}

class EngineAdapterFactory extends PrismaPg {
  override async connect() {
    const adapter = reportCharColumns(await super.connect());
    const startTransaction = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolation) => reportCharColumns(await startTransaction(isolation));
    return adapter;
  }

  // Diffing against the migrations replays them on a shadow database. The stock adapter would create one
  // with CREATE DATABASE on the target, which PGlite cannot host; a second in-memory PGlite serves on any target.
  override async connectToShadowDb() {
    const shadow = await startEmbeddedDatabase({ dataDir: null });
    const adapter = await engineAdapterFactory(shadow.url).connect();
    const dispose = adapter.dispose.bind(adapter);
    adapter.dispose = async () => {
      await dispose();
      await shadow.close();
    };
    return adapter;
  }
}

function enginePool(connectionString: string): pg.Pool {
  const pool = new pg.Pool({ connectionString, max: 1, Client: CatalogFriendlyClient });
  // An idle connection to a shadow database is cut when that database closes; nothing is waiting on it.
  pool.on('error', () => {});
  return pool;
}

function engineAdapterFactory(connectionString: string) {
  return new EngineAdapterFactory(enginePool(connectionString), { disposeExternalPool: true });
}

/** `schemaFile` defaults to prisma/schema.prisma; tests pass another to prove a disagreement is seen. */
export async function withSchemaEngine<T>(
  connectionString: string,
  work: (engine: SchemaEngine) => Promise<T>,
  schemaFile = schemaPath,
): Promise<T> {
  const mod = await loadEngineModule();
  runningEngines++;
  const pool = enginePool(connectionString);
  const adapter = bindMigrationAwareSqlAdapterFactory(new EngineAdapterFactory(pool, { disposeExternalPool: false }));
  try {
    const engine = await mod.SchemaEngine.new({ datamodels: [[schemaFile, await readSchema(schemaFile)]] }, () => {}, adapter);
    try {
      return await work(engine);
    } catch (error) {
      if (lastPanicMessage) throw new Error(`schema engine panicked: ${lastPanicMessage}`, { cause: error });
      throw error;
    } finally {
      engine.free();
    }
  } finally {
    // free() does not dispose the adapter; an idle pooled connection would hold a script open for pg's
    // idle timeout (10 s), and a server would keep one connection it never uses again.
    await pool.end();
    if (--runningEngines === 0) for (const timer of engineTimers) timer.unref();
  }
}

export async function loadMigrations(dir = migrationsDir): Promise<MigrationList> {
  const names = existsSync(dir) ? (await readdir(dir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name).sort() : [];
  const lockPath = path.join(dir, 'migration_lock.toml');
  return {
    baseDir: dir,
    lockfile: { path: 'migration_lock.toml', content: existsSync(lockPath) ? await readFile(lockPath, 'utf8') : null },
    shadowDbInitScript: '',
    migrationDirectories: await Promise.all(
      names.map(async (name) => ({
        path: name,
        migrationFile: {
          path: 'migration.sql',
          content: { tag: 'ok' as const, value: await readFile(path.join(dir, name, 'migration.sql'), 'utf8') },
        },
      })),
    ),
  };
}

export async function applyMigrations(connectionString: string): Promise<string[]> {
  const migrationsList = await loadMigrations();
  if (await migrationsAreCurrent(connectionString, migrationsList)) return [];
  return withSchemaEngine(connectionString, async (engine) => {
    const out = await engine.applyMigrations({ migrationsList, filters: noFilters });
    return out.appliedMigrationNames;
  });
}

// SQL that would take a database built by the committed migrations to what schema.prisma describes;
// empty when the two agree. The migrations are replayed on a shadow database, the target is not touched.
export async function pendingSchemaChanges(connectionString: string, schemaFile = schemaPath): Promise<string> {
  const migrationsList = await loadMigrations();
  const schema = await readSchema(schemaFile);
  return withSchemaEngine(
    connectionString,
    async (engine) => {
      const result = await engine.diff({
        from: migrationsList.migrationDirectories.length ? { tag: 'migrations', ...migrationsList } : { tag: 'empty' },
        to: { tag: 'schemaDatamodel', files: [{ path: schemaFile, content: schema }] },
        script: true,
        exitCode: null,
        filters: noFilters,
      });
      const sql = (result.stdout ?? '').trim();
      return /^-- This is an empty migration\.?$/.test(sql) ? '' : sql;
    },
    schemaFile,
  );
}
