import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

// Libraries that print to the console on their own, for things the tests do on purpose: the A2A SDK for
// every push notification its test agents send and for each card signature that fails to verify (the
// refusal is what those tests check), ajv for the `uri` format it does not know. A test run stays quiet
// unless a test fails; anything else a test prints still shows.
const LIBRARY_CHATTER = [/^Push notification sent for task_id=/, /^Signature verification on entry was not successful/, /^unknown format "[\w-]+" ignored in schema/];

export default defineConfig({
  resolve: {
    // Node (and so the running service) loads graphql's CommonJS entry, and so do the libraries built on it.
    // Vite would pick its "module" entry for our own files, giving two graphql copies whose types do not
    // mix ("Cannot use GraphQLObjectType from another module or realm").
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // Migrates one database per run; each file starts from a copy of it (test/support/database.ts).
    globalSetup: ['test/support/global-setup.ts'],
    // A file's first test that names a file fixture (test/support/fixtures.ts) also starts its service.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    // Files run one after another in a worker that keeps its module cache: the service's modules (Prisma's
    // client, the schema) load once per worker rather than once per file, which was a third of the suite's
    // time. Each file still gets its own database and service; nothing a file changes may outlive it
    // (see test/support/fixtures.ts on per-file settings).
    isolate: false,
    // The embedded database is PostgreSQL compiled to WASM. V8 first compiles it with its baseline compiler
    // (Liftoff), then recompiles hot functions optimised in background threads; in a test run made of many
    // short-lived databases and processes that recompiling costs more CPU than it saves (15-45 % of a
    // start, bench/startup.ts). The code under test is the same; only V8's tier differs.
    execArgv: ['--liftoff-only'],
    onConsoleLog: (log) => (LIBRARY_CHATTER.some((pattern) => pattern.test(log)) ? false : undefined),
  },
});
