// Memory while files upload: the whole service (embedded database, local disk storage) in this process,
// five clients each POSTing a 100 MiB file at once to /v1/files. Prints the resident set size at idle
// (after a warm-up upload), its peak during the uploads (sampled every 20 ms) and the difference. The
// clients' bodies are generated on the fly (64 KiB reused), so nearly all of it is the service's.
//
//   npx tsx bench/files-upload-memory.ts [--files 5] [--mib 100] [--s3]   (--s3: through s3rver on loopback)
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startTestServer } from '../test/support/server.js';
import { startEmbeddedDatabase } from '../src/db/embedded.js';
import { applyMigrations } from '../src/db/schema-engine.js';
import { startTestS3 } from '../test/support/s3.js';
import { patternStream, postStream } from '../test/support/big-body.js';

const { values: args } = parseArgs({ options: { files: { type: 'string', default: '5' }, mib: { type: 'string', default: '100' }, s3: { type: 'boolean', default: false } } });
const count = Number(args.files);
const size = Number(args.mib) * 1024 * 1024;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'files-bench-'));
const s3 = args.s3 ? await startTestS3() : null;
// A migrated embedded database of its own (the tests' copies come from vitest's global setup).
const embedded = await startEmbeddedDatabase({ dataDir: null });
await applyMigrations(embedded.url);
const db = { url: embedded.url, kind: 'pglite' as const, close: () => embedded.close() };
const server = await startTestServer({
  DATA_DIR: dataDir,
  FILE_MAX_BYTES: String(size),
  FILE_QUOTA_BYTES: String(size * (count + 2)),
  ...(s3 ? { FILE_STORAGE_URL: s3.url } : {}),
}, { db });
try {
  const user = await server.createUser();
  const upload = () => postStream(`${server.url}/v1/files?filename=big.bin`, patternStream(size), size, { authorization: `Bearer ${user.apiKey}`, 'content-type': 'application/octet-stream' });
  // Warm-up: the first upload loads the code paths and fills the pools.
  await postStream(`${server.url}/v1/files?filename=warm.bin`, patternStream(1024 * 1024), 1024 * 1024, { authorization: `Bearer ${user.apiKey}` });
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise((r) => setTimeout(r, 500));
  const idle = process.memoryUsage().rss;
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const started = Date.now();
  const answers = await Promise.all(Array.from({ length: count }, upload));
  clearInterval(sampler);
  const seconds = (Date.now() - started) / 1000;
  const ok = answers.filter((a) => a.status === 201).length;
  console.log(`${ok}/${count} uploads of ${args.mib} MiB (${s3 ? 's3rver' : 'local disk'}) in ${seconds.toFixed(1)} s`);
  console.log(`RSS idle ${mb(idle)}, peak ${mb(peak)}, above idle ${mb(peak - idle)} (goal < 100 MB)`);
} finally {
  await server.close();
  await db.close();
  await s3?.close();
  await rm(dataDir, { recursive: true, force: true });
}
