// Generates from prisma/schema.prisma. Without arguments: the Prisma client and the Pothos Prisma types
// into src/generated/ (not committed; postinstall runs this, also in a production install). With
// `kysely`: the Kysely table types into src/generated/kysely/types.ts (committed; its generator is a
// development dependency). A schema path may follow `--schema` (check-generated uses a scratch copy).
// The Prisma CLI wants a native schema engine it cannot download here; generating does not use it,
// so any existing file satisfies the check (see DESIGN.md).
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const schemaAt = args.indexOf('--schema');
const schema = schemaAt >= 0 ? args[schemaAt + 1] : 'prisma/schema.prisma';
const generators = args.includes('kysely') ? ['kysely'] : ['client', 'pothos'];
const result = spawnSync(
  process.execPath,
  [
    fileURLToPath(import.meta.resolve('prisma/build/index.js')),
    'generate',
    '--no-hints',
    '--schema',
    schema!,
    ...generators.flatMap((g) => ['--generator', g]),
  ],
  {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
      PRISMA_HIDE_UPDATE_MESSAGE: '1',
      CHECKPOINT_DISABLE: '1',
    },
  },
);

// The client loads its query compiler (WASM) from an ES module holding it as 4.5 MB of base64 text. An ES
// module is never unloaded, so its source and the string literal in it, 9 MB, stayed in the heap of
// every process for good after the one decode. Loaded as CommonJS instead (the package ships both) and
// dropped from the require cache after decoding, both are collected.
const WASM_IMPORT = `    const { wasm } = await import("@prisma/client/runtime/query_compiler_fast_bg.postgresql.wasm-base64.mjs")
    return await decodeBase64AsWasm(wasm)`;
const WASM_REQUIRE = `    const { createRequire } = await import('node:module')
    const require = createRequire(import.meta.url)
    const file = require.resolve("@prisma/client/runtime/query_compiler_fast_bg.postgresql.wasm-base64.js")
    const compiled = await decodeBase64AsWasm(require(file).wasm)
    delete require.cache[file]
    return compiled`;

if (result.status === 0 && generators.includes('client') && schemaAt < 0) {
  const classFile = path.join(root, 'src/generated/prisma/internal/class.ts');
  const text = readFileSync(classFile, 'utf8');
  if (!text.includes(WASM_IMPORT)) {
    console.error(`${classFile}: the query compiler is no longer loaded as this script expects (a new Prisma version?); update WASM_IMPORT in scripts/prisma-generate.ts`);
    process.exit(1);
  }
  writeFileSync(classFile, text.replace(WASM_IMPORT, WASM_REQUIRE));
}
process.exit(result.status ?? 1);
