// Bundles the service (src/main.ts) and the administration CLI (src/cli.ts), each with the project code it
// imports, into dist/<name>/<name>.mjs with esbuild, so a start loads plain JavaScript instead of compiling
// TypeScript through tsx on every start (seconds on a quiet machine, tens of seconds on a busy one).
// Packages stay external (loaded from node_modules as usual). Built at install; scripts/start.mjs and
// scripts/cli.mjs rebuild a bundle when one of its source files is newer, so a developer's edit is always
// what runs. esbuild is a development dependency: a production install (npm ci --omit=dev, the container
// image) runs the bundles it was given and never rebuilds them.
//
//   node scripts/bundle.mjs [--if-stale] [service|cli …]   (all of them without a name)
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const entries = { service: 'src/main.ts', cli: 'src/cli.ts' };

export function bundlePath(name) {
  return path.join(root, 'dist', name, `${name}.mjs`);
}
// The source files the bundle was made from (paths relative to the root), to tell when it is stale.
const inputsPath = (name) => path.join(root, 'dist', name, 'inputs.json');

// esbuild, or null in a production install (no development dependencies).
async function loadEsbuild() {
  try {
    return await import('esbuild');
  } catch {
    return null;
  }
}

// V8 keeps a script's source in memory as long as it runs, one byte per character when all of it is
// ASCII and two otherwise: a single arrow in a comment made the service's 1.2 MB source take 2.4 MB.
// esbuild writes strings and identifiers in ASCII already; what it keeps verbatim is comments, where
// \u{…} reads as well as the character.
function asciiOnly(code) {
  return code.replace(/[^\t\n\r -~]/gu, (c) => `\\u{${c.codePointAt(0).toString(16)}}`);
}

export async function buildBundle(name) {
  const esbuild = await loadEsbuild();
  if (!esbuild) throw new Error('esbuild is not installed (a production install): build the bundles with the development dependencies first (npm ci && npm run build)');
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [entries[name]],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
    metafile: true,
    outfile: bundlePath(name),
    logLevel: 'warning',
  });
  mkdirSync(path.dirname(bundlePath(name)), { recursive: true });
  // Several starts may find the bundle stale at once: each writes a file of its own and renames it into
  // place, so none reads a half-written bundle.
  const suffix = `.${process.pid}.tmp`;
  writeFileSync(inputsPath(name) + suffix, JSON.stringify(Object.keys(result.metafile.inputs)));
  writeFileSync(bundlePath(name) + suffix, asciiOnly(result.outputFiles[0].text));
  renameSync(inputsPath(name) + suffix, inputsPath(name));
  renameSync(bundlePath(name) + suffix, bundlePath(name));
}

export function isStale(name) {
  if (!existsSync(bundlePath(name)) || !existsSync(inputsPath(name))) return true;
  const built = statSync(bundlePath(name)).mtimeMs;
  const inputs = JSON.parse(readFileSync(inputsPath(name), 'utf8'));
  return inputs.some((file) => {
    const full = path.join(root, file);
    return !existsSync(full) || statSync(full).mtimeMs > built;
  });
}

/** Builds the bundle when it is missing or stale, and returns its path. */
export async function currentBundle(name) {
  // A production install keeps the bundle it was built with; its sources may not even be there.
  if (isStale(name) && !(existsSync(bundlePath(name)) && !(await loadEsbuild()))) await buildBundle(name);
  return bundlePath(name);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const ifStale = process.argv.includes('--if-stale');
  const names = process.argv.slice(2).filter((arg) => arg !== '--if-stale');
  const unknown = names.filter((name) => !(name in entries));
  if (unknown.length > 0) {
    process.stderr.write(`unknown bundle: ${unknown.join(', ')} (known: ${Object.keys(entries).join(', ')})\n`);
    process.exit(2);
  }
  for (const name of names.length > 0 ? names : Object.keys(entries)) {
    if (!ifStale || isStale(name)) await buildBundle(name);
  }
}
