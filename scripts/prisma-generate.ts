// Generates from prisma/schema.prisma. Without arguments: the Prisma client and the Pothos Prisma types
// into src/generated/ (not committed; postinstall runs this, also in a production install). With
// `kysely`: the Kysely table types into src/generated/kysely/types.ts (committed; its generator is a
// development dependency). A schema path may follow `--schema` (check-generated uses a scratch copy).
// The Prisma CLI wants a native schema engine it cannot download here; generating does not use it,
// so any existing file satisfies the check (see DESIGN.md).
import { spawnSync } from 'node:child_process';
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
process.exit(result.status ?? 1);
