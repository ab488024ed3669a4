// `npm run cli`: runs the CLI bundle, rebuilding it first when a source file it was made from is newer
// (a developer's edit), so a call is always the current code and usually costs no compile at all.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { URL, fileURLToPath, pathToFileURL } from 'node:url';
import { buildCli, cliBundle, cliInputs } from './cli-bundle.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

function stale() {
  if (!existsSync(cliBundle) || !existsSync(cliInputs)) return true;
  const built = statSync(cliBundle).mtimeMs;
  const inputs = JSON.parse(readFileSync(cliInputs, 'utf8'));
  return inputs.some((file) => {
    const full = path.join(root, file);
    return !existsSync(full) || statSync(full).mtimeMs > built;
  });
}

if (stale()) await buildCli();
await import(pathToFileURL(cliBundle).href);
