// Generates the Prisma client and the Pothos Prisma types into src/generated/.
// The Prisma CLI wants a native schema engine it cannot download here; generating does not use it,
// so any existing file satisfies the check (see DESIGN.md).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const result = spawnSync(
  process.execPath,
  [fileURLToPath(import.meta.resolve('prisma/build/index.js')), 'generate', '--schema', 'prisma/schema.prisma'],
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
