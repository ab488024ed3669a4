// npm run build:web (also run at install): bundles the dashboard in web/ with esbuild into dist/web,
// which the service serves at /. Asset names carry a content hash, so they can be cached for good;
// index.html names the current ones and is never cached.
import { mkdir, mkdtemp, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
export const webOutDir = path.join(root, 'dist/web');

// Built beside the output and moved into it file by file (each rename replaces a file whole), so a
// service serving dist/web meanwhile (another test file's, or a running one) never sees it half-written
// or missing; assets of an earlier build that this one does not name are removed at the end.
export async function buildWeb(outDir = webOutDir): Promise<{ js: string; css: string }> {
  await mkdir(path.dirname(outDir), { recursive: true });
  const scratch = await mkdtemp(`${outDir}.building-`);
  try {
    const built = await buildInto(scratch);
    await mkdir(path.join(outDir, 'assets'), { recursive: true });
    const assets = await readdir(path.join(scratch, 'assets'));
    for (const file of assets) await rename(path.join(scratch, 'assets', file), path.join(outDir, 'assets', file));
    for (const file of ['favicon.svg', 'index.html']) await rename(path.join(scratch, file), path.join(outDir, file));
    for (const file of await readdir(path.join(outDir, 'assets'))) {
      if (!assets.includes(file)) await rm(path.join(outDir, 'assets', file), { force: true });
    }
    return built;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

async function buildInto(outDir: string): Promise<{ js: string; css: string }> {
  await mkdir(path.join(outDir, 'assets'), { recursive: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: { app: 'web/src/main.tsx' },
    outdir: path.join(outDir, 'assets'),
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2022'],
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  });
  const outputs = Object.keys(result.metafile.outputs).map((file) => path.basename(file));
  const js = outputs.find((f) => f.endsWith('.js'));
  const css = outputs.find((f) => f.endsWith('.css'));
  if (!js || !css) throw new Error(`esbuild produced no script or stylesheet: ${outputs.join(', ')}`);
  // Compressed once here, so the service sends gzip without compressing on each request.
  for (const file of [js, css]) {
    const full = path.join(outDir, 'assets', file);
    await writeFile(`${full}.gz`, gzipSync(await readFile(full), { level: 9 }));
  }
  const template = await readFile(path.join(root, 'web/index.html'), 'utf8');
  const html = template.replace('%APP_JS%', `/assets/${js}`).replace('%APP_CSS%', `/assets/${css}`);
  await writeFile(path.join(outDir, 'index.html'), html);
  await writeFile(path.join(outDir, 'favicon.svg'), await readFile(path.join(root, 'web/favicon.svg')));
  return { js, css };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const started = Date.now();
  const { js, css } = await buildWeb();
  console.log(`dashboard built into dist/web (${js}, ${css}) in ${Date.now() - started} ms`);
}
