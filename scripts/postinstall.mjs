// npm install's last step. With the development dependencies (a developer's clone, CI, the image's build
// stage): generates the Prisma client, builds the dashboard and bundles the service and CLI (npm run build).
// Without them (npm ci --omit=dev, the image's run stage) there is nothing to build with: the build output
// (dist/) comes from a build made with them, and this says so in one line instead of failing the install.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const installed = (name) => {
  try {
    require.resolve(`${name}/package.json`, { paths: [root] });
    return true;
  } catch {
    return false;
  }
};

if (installed('tsx') && installed('esbuild')) {
  const run = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  process.exit(run.status ?? 1);
}
const built = existsSync(`${root}/dist/service/service.mjs`) && existsSync(`${root}/dist/web/index.html`);
process.stdout.write(
  built
    ? 'production install: using the build in dist/\n'
    : 'production install: no build in dist/ yet; build it where the development dependencies are (npm ci && npm run build) and copy dist/ here\n',
);
