// Preloaded into a service process (NODE_OPTIONS=--import …) by test/lazy-packages.test.ts: writes the
// file of every module it loads to LOADED_MODULES_FILE, one a line. ES modules are told by a load hook as
// they load; CommonJS ones (their require calls pass no hook in Node 20) are read from the require
// cache as the process exits.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import process from 'node:process';

const out = process.env.LOADED_MODULES_FILE;
if (!out) throw new Error('LOADED_MODULES_FILE is not set');
register(
  `data:text/javascript,${encodeURIComponent(`
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  if (url.startsWith('file:')) appendFileSync(${JSON.stringify(out)}, new URL(url).pathname + '\\n');
  return next(url, context);
}`)}`,
);
const require = createRequire(import.meta.url);
process.on('exit', () => {
  const cached = Object.keys(require('node:module')._cache);
  appendFileSync(out, cached.map((file) => `${file}\n`).join(''));
});
