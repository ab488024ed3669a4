// Packages that only some deployments or some requests use are loaded the first time they are needed
// rather than at start: compiling them cost every process, the CLI included, start-up time and resident
// memory whether it used them or not (docs/benchmarks.md, "Install and memory"). An idle service on
// PostgreSQL loads none of: Stripe, Typesense, Redis, the embedded database (PGlite), the S3 SDK,
// nodemailer, @simplewebauthn/server, the A2A SDK's server and client, the MCP SDK, Ajv, RE2 and graphql-jit
// (test/lazy-packages.test.ts holds it to that).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

// For code that must stay synchronous: Node's require loads the package (its CommonJS build) at once.
export function packageLoader<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(name) as T);
}

// For code that is asynchronous anyway: `lazyImport(() => import('pkg'))` imports the package (the same
// ES module every other importer gets) on the first call and hands the same promise to every later one.
// The import is written at the call site so that its type is the package's own and the bundle keeps it a
// dynamic import.
export function lazyImport<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}
