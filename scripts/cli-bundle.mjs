// Bundles the administration CLI (src/cli.ts and the project code it imports) into dist/cli/cli.mjs with
// esbuild, so a CLI call loads plain JavaScript instead of compiling TypeScript on every start. Packages
// stay external (loaded from node_modules as usual). Run at install; scripts/cli.mjs rebuilds when stale.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
export const cliOutDir = path.join(root, 'dist/cli');
export const cliBundle = path.join(cliOutDir, 'cli.mjs');
// The source files the bundle was made from (paths relative to the root), to tell when it is stale.
export const cliInputs = path.join(cliOutDir, 'inputs.json');

export async function buildCli() {
  const result = await build({
    absWorkingDir: root,
    entryPoints: ['src/cli.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
    metafile: true,
    outfile: cliBundle,
    logLevel: 'warning',
  });
  mkdirSync(cliOutDir, { recursive: true });
  // Several CLI calls may find the bundle stale at once: each writes a file of its own and renames it
  // into place, so none reads a half-written bundle.
  const suffix = `.${process.pid}.tmp`;
  writeFileSync(cliInputs + suffix, JSON.stringify(Object.keys(result.metafile.inputs)));
  writeFileSync(cliBundle + suffix, result.outputFiles[0].contents);
  renameSync(cliInputs + suffix, cliInputs);
  renameSync(cliBundle + suffix, cliBundle);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildCli();
