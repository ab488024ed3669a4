// What an idle service has loaded: none of the packages that only some requests or some deployments use
// (src/load-package.ts). Each is about 5-20 MB resident once loaded (docs/benchmarks.md), so a static
// import of one of them slipping back in fails here. The service runs as `npm start` runs it, with a
// preload that lists every module file it loads (support/loaded-modules.mjs).
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createTestDatabase, testDataDir, usingPostgres, type TestDatabase } from './support/database.js';
import { killAll, startServerProcess, type ServerProcess } from './support/processes.js';

const dirs: string[] = [];
const dbs: TestDatabase[] = [];
const procs: ServerProcess[] = [];
afterAll(async () => {
  await killAll(procs);
  await Promise.all(dbs.map((db) => db.close()));
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

// Loaded on first use; a service on the embedded database loads PGlite at start, of course.
const LAZY = [
  '@aws-sdk/client-s3',
  '@aws-sdk/lib-storage',
  'nodemailer',
  '@simplewebauthn/server',
  '@a2a-js/sdk/dist/server',
  '@a2a-js/sdk/dist/client',
  '@a2a-js/sdk/dist/compat',
  '@modelcontextprotocol/sdk',
  'ajv',
  're2js',
  'stripe',
  'typesense',
  'ioredis',
  '@graphql-yoga/render-graphiql',
  '@prisma/schema-engine-wasm',
  // The REST adapter's compiler (graphql/operation.ts), loaded with the first document it runs.
  'graphql-jit',
];
const EMBEDDED = ['@electric-sql/pglite', '@electric-sql/pglite-socket'];

// The packages among `names` that some loaded file belongs to (reading a package.json, as GraphiQL's
// page does for the version in its asset paths, loads no code).
function loadedOf(files: string[], names: string[]): string[] {
  return names.filter((name) => files.some((file) => file.includes(`/node_modules/${name}/`) && !file.endsWith('/package.json')));
}

it('an idle service has loaded none of the packages loaded on first use', async () => {
  const dataDir = await testDataDir('tm-lazy-packages-');
  dirs.push(dataDir);
  const db = usingPostgres() ? await createTestDatabase() : null;
  if (db) dbs.push(db);
  const list = path.join(dataDir, 'loaded-modules.txt');
  const preload = path.resolve('test/support/loaded-modules.mjs');
  const proc = await startServerProcess({
    DATA_DIR: dataDir,
    SECRET_KEY: 'd'.repeat(64),
    ...(db ? { DATABASE_URL: db.url } : {}),
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${preload}`.trim(),
    LOADED_MODULES_FILE: list,
  });
  procs.push(proc);
  // What every request passes through, and the worker's first polls.
  expect((await fetch(`${proc.url}/v1/tasks`)).status).toBe(401);
  expect((await fetch(`${proc.url}/healthz`)).status).toBe(200);
  const finished = await proc.stop();
  expect(finished.code).toBe(0);

  const files = (await readFile(list, 'utf8')).split('\n').filter(Boolean);
  // The list is real: what every start needs is on it.
  expect(loadedOf(files, ['graphql-yoga', 'kysely', 'graphile-worker', '@prisma/client'])).toHaveLength(4);
  expect(loadedOf(files, LAZY)).toEqual([]);
  expect(loadedOf(files, EMBEDDED)).toEqual(db ? [] : EMBEDDED);
}, 180_000);
